import type pg from "pg";
import { BACKFILL_SQL, type BackfillStatement } from "../backfill-sql.js";
import { backfillOf, type Backfill, type BackfillStore, type BackfillRow, type BackfillStep } from "../backfill-store.js";
import type { ChannelRef } from "../channel-settings-store.js";

/** A statement's named parameters as PostgreSQL's `$n`, in the order of their first use. */
function numbered(statement: BackfillStatement): { text: string; names: string[] } {
  const names: string[] = [];
  const text = BACKFILL_SQL[statement].replace(/@(\w+)/g, (_, name: string) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { text, names };
}

const STATEMENTS = Object.fromEntries((Object.keys(BACKFILL_SQL) as BackfillStatement[]).map((name) => [name, numbered(name)])) as Record<
  BackfillStatement,
  { text: string; names: string[] }
>;

const keyOf = ({ platform, workspaceId, channelId }: ChannelRef) => ({ platform, workspaceId, channelId });

/** Channel history backfills in PostgreSQL. */
export class PostgresBackfills implements BackfillStore {
  constructor(private readonly pool: pg.Pool) {}

  private async run(statement: BackfillStatement, params: Record<string, unknown>): Promise<pg.QueryResult<BackfillRow>> {
    const { text, names } = STATEMENTS[statement];
    return this.pool.query<BackfillRow>(
      text,
      names.map((name) => params[name] ?? null),
    );
  }

  async begin(channel: ChannelRef, requestedBy: string, since: number, now: number): Promise<boolean> {
    return (await this.run("begin", { ...keyOf(channel), requestedBy, since, now })).rowCount === 1;
  }

  async get(channel: ChannelRef): Promise<Backfill | undefined> {
    const row = (await this.run("get", keyOf(channel))).rows[0];
    return row && backfillOf(row);
  }

  async resumable(platform: string, now: number): Promise<Backfill[]> {
    return (await this.run("resumable", { platform, now })).rows.map(backfillOf);
  }

  async claim(channel: ChannelRef, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return (await this.run("claim", { ...keyOf(channel), owner, now, until: now + leaseMs })).rowCount === 1;
  }

  async advance(channel: ChannelRef, owner: string, step: BackfillStep, now: number): Promise<boolean> {
    const params = { ...keyOf(channel), owner, now, cursor: step.cursor, read: step.read, oldestAt: step.oldestAt };
    return (await this.run("advance", params)).rowCount === 1;
  }

  async finish(channel: ChannelRef, owner: string, status: "done" | "failed", now: number): Promise<void> {
    await this.run("finish", { ...keyOf(channel), owner, status, now });
  }

  async release(channel: ChannelRef, owner: string): Promise<void> {
    await this.run("release", { ...keyOf(channel), owner });
  }
}
