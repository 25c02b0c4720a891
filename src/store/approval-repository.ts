import { shorten } from "../text.js";
import type { Db } from "./database.js";

/** The most characters of a request's arguments the audit keeps (steps keep as many). */
const MAX_STORED_ARGS_CHARS = 8_000;

export type ApprovalStatus = "pending" | "approved" | "denied" | "timed_out" | "expired";

export interface ApprovalRecord {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  turnId: string;
  tool: string;
  args: unknown;
  /** The user whose question led to the call. */
  askedBy: string;
  status: ApprovalStatus;
  requestedAt: number;
  decidedBy?: string;
  decidedAt?: number;
  /** The process that waits for the decision (see INSTANCE_ID). */
  instance: string;
}

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
  instance: string;
}

/**
 * Requests to approve a tool call, and the decisions on them: the approvals audit. Async like
 * every repository, so that another database can stand behind the same interface.
 */
export class ApprovalRepository {
  private readonly insert;
  private readonly settle;
  private readonly select;
  private readonly expirePending;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO approvals (id, platform, workspace_id, channel_id, turn_id, tool, args_json, asked_by, status, requested_at, instance)
       VALUES (@id, @platform, @workspaceId, @channelId, @turnId, @tool, @argsJson, @askedBy, 'pending', @requestedAt, @instance)`,
    );
    this.settle = db.prepare<[ApprovalStatus, string | null, number, string]>(
      `UPDATE approvals SET status = ?, decided_by = ?, decided_at = ? WHERE id = ? AND status = 'pending'`,
    );
    this.select = db.prepare<[string], Row>(
      `SELECT id, platform, workspace_id AS workspaceId, channel_id AS channelId, turn_id AS turnId, tool, args_json AS argsJson,
         asked_by AS askedBy, status, requested_at AS requestedAt, decided_by AS decidedBy, decided_at AS decidedAt, instance
       FROM approvals WHERE id = ?`,
    );
    this.expirePending = db.prepare<[number, string]>(`UPDATE approvals SET status = 'expired', decided_at = ? WHERE status = 'pending' AND instance = ?`);
  }

  async create(request: Omit<ApprovalRecord, "status" | "decidedBy" | "decidedAt">): Promise<void> {
    this.insert.run({
      ...request,
      tool: shorten(request.tool, 200),
      argsJson: shorten(JSON.stringify(request.args ?? null), MAX_STORED_ARGS_CHARS),
    });
  }

  /** Records the end of a pending request; false when it had already ended (nothing changes then). */
  async close(id: string, status: Exclude<ApprovalStatus, "pending">, decidedBy: string | undefined, at = Date.now()): Promise<boolean> {
    return this.settle.run(status, decidedBy ?? null, at, id).changes === 1;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const row = this.select.get(id);
    if (!row) return undefined;
    const { argsJson, decidedBy, decidedAt, ...rest } = row;
    return { ...rest, args: parseJson(argsJson), decidedBy: decidedBy ?? undefined, decidedAt: decidedAt ?? undefined };
  }

  /** At start-up: requests this instance's previous process left waiting can no longer be decided. */
  async expireLeftPending(instance: string): Promise<number> {
    return this.expirePending.run(Date.now(), instance).changes;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
