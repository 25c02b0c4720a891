import type { ChannelRef } from "./channel-settings-store.js";

/** A channel's history backfill (issue 24 §2) as stored: where it is, how far it got. */
export interface Backfill extends ChannelRef {
  requestedBy: string;
  /** The oldest message time to read (ms since the epoch). */
  since: number;
  /** Where the next page starts, in the platform's own terms; none before the first page. */
  cursor?: string;
  /** Messages indexed so far, and the time of the oldest of them. */
  read: number;
  oldestAt?: number;
  status: "running" | "done" | "failed";
  startedAt: number;
  updatedAt: number;
}

/** One page's progress. */
export interface BackfillStep {
  cursor?: string;
  /** Messages this page indexed. */
  read: number;
  oldestAt?: number;
}

/**
 * Channel history backfills, shared by every process: one process reads a backfill at a time
 * (`claim`, a lease renewed by every step), and each page's cursor is stored as it is indexed, so
 * a restart goes on from the last page written.
 */
export interface BackfillStore {
  /** Starts (or starts over) the channel's backfill; false, changing nothing, when one is running there and held by a process. */
  begin(channel: ChannelRef, requestedBy: string, since: number, now: number): Promise<boolean>;
  get(channel: ChannelRef): Promise<Backfill | undefined>;
  /** The running backfills of a platform that no process holds now (to resume). */
  resumable(platform: string, now: number): Promise<Backfill[]>;
  /** Takes (or keeps) the backfill for `owner` until `now + leaseMs`: true if it runs and nobody else holds it. */
  claim(channel: ChannelRef, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /** A page indexed: its cursor and counts, if `owner` still holds it (false otherwise). */
  advance(channel: ChannelRef, owner: string, step: BackfillStep, now: number): Promise<boolean>;
  /** Ends it (done or failed) if `owner` holds it. */
  finish(channel: ChannelRef, owner: string, status: "done" | "failed", now: number): Promise<void>;
  /** Lets go of it (shutdown): another process, or this one's next start, resumes it at once. */
  release(channel: ChannelRef, owner: string): Promise<void>;
}

/** The row as both engines read it. */
export interface BackfillRow {
  platform: string;
  workspace_id: string;
  channel_id: string;
  requested_by: string;
  since: number | string;
  cursor: string | null;
  read_count: number;
  oldest_at: number | string | null;
  status: string;
  started_at: number | string;
  updated_at: number | string;
}

export function backfillOf(row: BackfillRow): Backfill {
  return {
    platform: row.platform,
    workspaceId: row.workspace_id,
    channelId: row.channel_id,
    requestedBy: row.requested_by,
    since: Number(row.since),
    ...(row.cursor === null ? {} : { cursor: row.cursor }),
    read: Number(row.read_count),
    ...(row.oldest_at === null ? {} : { oldestAt: Number(row.oldest_at) }),
    status: row.status === "done" || row.status === "failed" ? row.status : "running",
    startedAt: Number(row.started_at),
    updatedAt: Number(row.updated_at),
  };
}
