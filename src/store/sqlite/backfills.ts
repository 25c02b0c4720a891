import { BACKFILL_SQL } from "../backfill-sql.js";
import { backfillOf, type Backfill, type BackfillStore, type BackfillRow, type BackfillStep } from "../backfill-store.js";
import type { ChannelRef } from "../channel-settings-store.js";
import type { Db } from "./database.js";

const keyOf = ({ platform, workspaceId, channelId }: ChannelRef) => ({ platform, workspaceId, channelId });

/** Channel history backfills in SQLite. */
export class SqliteBackfills implements BackfillStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      begin: db.prepare(BACKFILL_SQL.begin),
      get: db.prepare<[Record<string, unknown>], BackfillRow>(BACKFILL_SQL.get),
      resumable: db.prepare<[Record<string, unknown>], BackfillRow>(BACKFILL_SQL.resumable),
      claim: db.prepare(BACKFILL_SQL.claim),
      advance: db.prepare(BACKFILL_SQL.advance),
      finish: db.prepare(BACKFILL_SQL.finish),
      release: db.prepare(BACKFILL_SQL.release),
    };
  }

  async begin(channel: ChannelRef, requestedBy: string, since: number, now: number): Promise<boolean> {
    return this.statements.begin.run({ ...keyOf(channel), requestedBy, since, now }).changes === 1;
  }

  async get(channel: ChannelRef): Promise<Backfill | undefined> {
    const row = this.statements.get.get(keyOf(channel));
    return row && backfillOf(row);
  }

  async resumable(platform: string, now: number): Promise<Backfill[]> {
    return this.statements.resumable.all({ platform, now }).map(backfillOf);
  }

  async claim(channel: ChannelRef, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return this.statements.claim.run({ ...keyOf(channel), owner, now, until: now + leaseMs }).changes === 1;
  }

  async advance(channel: ChannelRef, owner: string, step: BackfillStep, now: number): Promise<boolean> {
    const params = { ...keyOf(channel), owner, now, cursor: step.cursor ?? null, read: step.read, oldestAt: step.oldestAt ?? null };
    return this.statements.advance.run(params).changes === 1;
  }

  async finish(channel: ChannelRef, owner: string, status: "done" | "failed", now: number): Promise<void> {
    this.statements.finish.run({ ...keyOf(channel), owner, status, now });
  }

  async release(channel: ChannelRef, owner: string): Promise<void> {
    this.statements.release.run({ ...keyOf(channel), owner });
  }
}
