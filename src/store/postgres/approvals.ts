import type pg from "pg";
import { shorten } from "../../text.js";
import { MAX_STORED_ARGS_CHARS, parseArgs, type ApprovalDecision, type ApprovalRecord, type ApprovalStore, type ApprovalStatus } from "../approval-store.js";
import { storable, storableJson } from "../turn-records.js";

/** Requests to approve a tool call, and the decisions on them: the approvals audit. */
export class PostgresApprovals implements ApprovalStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(request: Omit<ApprovalRecord, "status" | "decidedBy" | "decidedAt" | "decidedVia">): Promise<void> {
    await this.pool.query(
      `INSERT INTO approvals (id, platform, workspace_id, channel_id, turn_id, tool, args_json, asked_by, status, requested_at, instance)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10)`,
      [
        request.id,
        request.platform,
        request.workspaceId,
        request.channelId,
        request.turnId,
        shorten(storable(request.tool), 200),
        shorten(storableJson(request.args ?? null), MAX_STORED_ARGS_CHARS),
        request.askedBy,
        request.requestedAt,
        request.instance,
      ],
    );
  }

  async close(id: string, status: Exclude<ApprovalStatus, "pending">, decision: ApprovalDecision = {}): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE approvals SET status = $1, decided_by = $2, decided_at = $3, decided_via = $4 WHERE id = $5 AND status = 'pending'`,
      [status, decision.by ?? null, decision.at ?? Date.now(), decision.via ?? null, id],
    );
    return rowCount === 1;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.pool.query<
      Omit<ApprovalRecord, "args" | "decidedBy" | "decidedAt" | "decidedVia"> & {
        argsJson: string;
        decidedBy: string | null;
        decidedAt: number | null;
        decidedVia: string | null;
      }
    >(
      `SELECT id, platform, workspace_id AS "workspaceId", channel_id AS "channelId", turn_id AS "turnId", tool, args_json AS "argsJson",
         asked_by AS "askedBy", status, requested_at AS "requestedAt", decided_by AS "decidedBy", decided_at AS "decidedAt",
         decided_via AS "decidedVia", instance
       FROM approvals WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { argsJson, decidedBy, decidedAt, decidedVia, ...rest } = row;
    return { ...rest, args: parseArgs(argsJson), decidedBy: decidedBy ?? undefined, decidedAt: decidedAt ?? undefined, decidedVia: decidedVia ?? undefined };
  }
}
