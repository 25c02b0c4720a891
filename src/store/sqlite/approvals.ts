import { shorten } from "../../text.js";
import { MAX_STORED_ARGS_CHARS, parseArgs, type ApprovalDecision, type ApprovalRecord, type ApprovalStore, type ApprovalStatus } from "../approval-store.js";
import { storable, storableJson } from "../turn-records.js";
import type { Db } from "./database.js";

interface Row {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  turnId: string;
  tool: string;
  argsJson: string;
  askedBy: string;
  status: ApprovalStatus;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  decidedVia: string | null;
  instance: string;
}

/** Requests to approve a tool call, and the decisions on them: the approvals audit. */
export class SqliteApprovals implements ApprovalStore {
  private readonly insert;
  private readonly settle;
  private readonly select;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO approvals (id, platform, workspace_id, channel_id, turn_id, tool, args_json, asked_by, status, requested_at, instance)
       VALUES (@id, @platform, @workspaceId, @channelId, @turnId, @tool, @argsJson, @askedBy, 'pending', @requestedAt, @instance)`,
    );
    this.settle = db.prepare<[ApprovalStatus, string | null, number, string | null, string]>(
      `UPDATE approvals SET status = ?, decided_by = ?, decided_at = ?, decided_via = ? WHERE id = ? AND status = 'pending'`,
    );
    this.select = db.prepare<[string], Row>(
      `SELECT id, platform, workspace_id AS workspaceId, channel_id AS channelId, turn_id AS turnId, tool, args_json AS argsJson,
         asked_by AS askedBy, status, requested_at AS requestedAt, decided_by AS decidedBy, decided_at AS decidedAt,
         decided_via AS decidedVia, instance
       FROM approvals WHERE id = ?`,
    );
  }

  async create(request: Omit<ApprovalRecord, "status" | "decidedBy" | "decidedAt" | "decidedVia">): Promise<void> {
    const { args, ...rest } = request;
    this.insert.run({
      ...rest,
      tool: shorten(storable(request.tool), 200),
      argsJson: shorten(storableJson(args ?? null), MAX_STORED_ARGS_CHARS),
    });
  }

  async close(id: string, status: Exclude<ApprovalStatus, "pending">, decision: ApprovalDecision = {}): Promise<boolean> {
    return this.settle.run(status, decision.by ?? null, decision.at ?? Date.now(), decision.via ?? null, id).changes === 1;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.select.get(id);
    if (!row) return undefined;
    const { argsJson, decidedBy, decidedAt, decidedVia, ...rest } = row;
    return { ...rest, args: parseArgs(argsJson), decidedBy: decidedBy ?? undefined, decidedAt: decidedAt ?? undefined, decidedVia: decidedVia ?? undefined };
  }
}
