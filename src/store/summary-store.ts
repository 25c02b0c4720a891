import type { Conversation, WorkspaceRef } from "./types.js";

/** What the identifier index tells apart: each is kept verbatim as it was written. */
export type IdentifierKind = "url" | "quantity" | "date" | "id" | "code" | "file" | "mention";

/** One identifier found by code in a summarized message, with where it was said. */
export interface IndexedIdentifier {
  text: string;
  kind: IdentifierKind;
  /** Who wrote it: the asker's display name, or "bot" for an answer. */
  by: string;
  /** The message it came from: a permalink where the platform has one (Discord), else the platform's message id. */
  source: string;
  /** When it was said (ms since the epoch). */
  at: number;
}

/** A conversation's summary of what left its memory window, as stored (one versioned row). */
export interface SummaryState {
  conversationId: number;
  /** Bumped by every write: a write names the version it read and changes nothing if another came first. */
  version: number;
  summary: string;
  /** Oldest first; capped, the newest kept. */
  identifiers: IndexedIdentifier[];
  /** The last message (its row id) the summary covers; later ones are in the window or still to summarize. */
  coveredTo: number;
  /** The time range the summary covers (ms); absent while it covers nothing. */
  coversFrom?: number;
  coversUntil?: number;
  updatedAt?: number;
  /** Failed attempts in a row; the next may run from `retryAt` (ms). */
  failures: number;
  retryAt: number;
  /** The conversation was told a summary is kept. */
  noted: boolean;
}

/** A stored message out of the window, not summarized yet. */
export interface DroppedMessage {
  id: number;
  role: "user" | "assistant";
  author: string | null;
  text: string;
  createdAt: number;
  /** The platform's id of the question's message (none for answers and older rows). */
  sourceId: string | null;
}

export interface SummaryUpdate {
  summary: string;
  identifiers: IndexedIdentifier[];
  coveredTo: number;
  coversFrom: number;
  coversUntil: number;
  updatedAt: number;
}

/** A summary call's tokens, recorded as usage of kind "summary" (a turn row of its own, in the workspace's day and the rollup). */
export interface SummaryUsage {
  conversationId: number;
  workspace: WorkspaceRef;
  /** The channel usage reports group it under (a thread's channel). */
  channelId: string;
  model: string;
  ok: boolean;
  promptTokens: number;
  completionTokens: number;
  durationMs: number;
}

/**
 * Conversation summaries (issue 24 §1), shared by every process: at most one process updates a
 * conversation's summary at a time (`claim`, a lease), and a write that read an older version
 * changes nothing (`save`/`failed` check it), so no update is ever lost.
 */
export interface SummaryStore {
  /** The conversation's summary (an empty one, version 0, before the first). */
  get(conversationId: number): Promise<SummaryState>;
  /**
   * The conversation's messages that left its window (the newest `keepMessages` after its
   * window start) and that the summary does not cover yet (after `coveredTo`): oldest first, at most `limit`.
   */
  dropped(conversation: Conversation, coveredTo: number, keepMessages: number, limit: number): Promise<DroppedMessage[]>;
  /** Takes the conversation's next update until `now + leaseMs`: true if the row is still at `version` and nobody holds it. */
  claim(conversationId: number, version: number, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Writes the new summary if the row is still at `version` (then bumps it); false otherwise. The
   * call's tokens (`usage`) are recorded either way, in the same transaction.
   */
  save(conversationId: number, version: number, update: SummaryUpdate, usage: SummaryUsage): Promise<boolean>;
  /** A failed attempt, if the row is still at `version`: counted, retried from `retryAt`; the messages stay to summarize. Its `usage` is recorded either way. */
  failed(conversationId: number, version: number, retryAt: number, usage: SummaryUsage): Promise<boolean>;
  /** Marks the note told; true for the one caller that marks it first. */
  markNoted(conversationId: number): Promise<boolean>;
  /** Forgets the summary and the index (memory clear): a new one covers what comes after `coveredTo`. */
  reset(conversationId: number, coveredTo: number): Promise<void>;
}

/** The row as both engines read it. */
export interface SummaryRow {
  version: number | string;
  summary: string;
  identifiers: string;
  covered_to: number | string;
  covers_from: number | string | null;
  covers_until: number | string | null;
  updated_at: number | string | null;
  failures: number;
  retry_at: number | string;
  noted: number;
}

const num = (value: number | string) => Number(value);
const optional = (value: number | string | null) => (value === null ? undefined : Number(value));

export function summaryFromRow(conversationId: number, row: SummaryRow | undefined): SummaryState {
  if (!row) return { conversationId, version: 0, summary: "", identifiers: [], coveredTo: 0, failures: 0, retryAt: 0, noted: false };
  let identifiers: IndexedIdentifier[] = [];
  try {
    const parsed: unknown = JSON.parse(row.identifiers);
    if (Array.isArray(parsed)) identifiers = parsed as IndexedIdentifier[];
  } catch {
    // A damaged index is dropped, not fatal: the next summary writes a fresh one.
  }
  return {
    conversationId,
    version: num(row.version),
    summary: row.summary,
    identifiers,
    coveredTo: num(row.covered_to),
    coversFrom: optional(row.covers_from),
    coversUntil: optional(row.covers_until),
    updatedAt: optional(row.updated_at),
    failures: row.failures,
    retryAt: num(row.retry_at),
    noted: row.noted === 1,
  };
}
