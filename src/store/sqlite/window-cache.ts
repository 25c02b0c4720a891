import type { DroppedMessage, SummaryState } from "../summary-store.js";
import type { StoredMessage } from "../types.js";
import type { DataVersion } from "./data-version.js";

/** Bounds of the cache: conversations, and characters of text across them (a few MB at most). */
const MAX_CONVERSATIONS = 1_000;
const MAX_CHARS = 2_000_000;
/**
 * Rows kept beyond a window: what left it and waits for the conversation's summary (a batch of
 * exchanges, see MEMORY_SUMMARY_BATCH) is then read from here too, not from the file at every turn.
 */
const EXTRA_ROWS = 24;

/** A window's message as the turn reads it, with what the summary's read of what left the window needs too. */
export interface CachedMessage {
  message: StoredMessage;
  id: number;
  createdAt: number;
  sourceId: string | null;
}

/** The first `count` rows' messages (the same objects every read: callers must not change them). */
const messagesOf = (rows: readonly CachedMessage[], count: number): StoredMessage[] => {
  const messages = new Array<StoredMessage>(Math.min(count, rows.length));
  for (let i = 0; i < messages.length; i++) messages[i] = rows[i]!.message;
  return messages;
};

interface CachedWindow {
  /** The window_start the rows were read after (a "memory clear" moves it). */
  windowStart: number;
  /** Newest first, as the window query returns them. */
  rows: CachedMessage[];
  /** The most rows kept: as many as the read asked for. */
  limit: number;
  /** True when rows holds every message after windowStart (the read found fewer than it asked for). */
  complete: boolean;
  chars: number;
}

const charsOf = (rows: readonly CachedMessage[]) => rows.reduce((sum, row) => sum + row.message.text.length, 0);

/**
 * The newest rows of recently used conversations' memory windows, so a turn reads its window
 * without SQLite. Appended when a turn's closing transaction commits, dropped when it rolls back or
 * the window is cleared; everything is dropped as soon as another connection committed anything
 * (`PRAGMA data_version`), so what another process wrote is read from the file. Callers must not
 * change the messages they get. It keeps the conversations' summary rows too (read for every
 * turn's prompt, written every few turns), under the same rules: what is dropped with a window
 * (a forgetting here, another connection's commit) is dropped with its summary.
 */
export class WindowCache {
  private readonly entries = new Map<number, CachedWindow>();
  /** Summary rows as last read here; SqliteSummaries drops one whenever it writes that row. */
  private readonly summaries = new Map<number, SummaryState>();
  private chars = 0;
  private seenVersion = -1;
  /** Exchanges written by the transaction in progress, applied once it commits. */
  private pending: { conversationId: number; question: CachedMessage; answer: CachedMessage }[] = [];

  constructor(private readonly version: DataVersion) {}

  /**
   * The newest `count` rows after `windowStart`, newest first; on a miss, `read` reads the newest
   * `limit` rows (a few more than asked, kept for `dropped`).
   */
  rows(conversationId: number, windowStart: number, count: number, read: (limit: number) => CachedMessage[]): StoredMessage[] {
    this.checkVersion();
    const cached = this.entries.get(conversationId);
    if (cached && cached.windowStart === windowStart && (cached.complete || cached.rows.length >= count)) {
      // Most recently used last, so the bound drops the least recently used first.
      this.entries.delete(conversationId);
      this.entries.set(conversationId, cached);
      return messagesOf(cached.rows, count);
    }
    const limit = count + EXTRA_ROWS;
    const rows = read(limit);
    this.drop(conversationId);
    const entry = { windowStart, rows, limit, complete: rows.length < limit, chars: charsOf(rows) };
    this.entries.set(conversationId, entry);
    this.chars += entry.chars;
    this.bound();
    return messagesOf(rows, count);
  }

  /**
   * What left the window, as SqliteSummaries.dropped reads it: the rows after `after` (and after
   * `windowStart`) older than the newest `keep`, oldest first, at most `limit`. Undefined when the
   * cache cannot tell (the conversation is not cached, or some of those rows are older than what it holds).
   */
  dropped(conversationId: number, windowStart: number, after: number, keep: number, limit: number): DroppedMessage[] | undefined {
    this.checkVersion();
    const cached = this.entries.get(conversationId);
    if (!cached || cached.windowStart !== windowStart) return undefined;
    const from = Math.max(windowStart, after);
    const { rows } = cached;
    if (!cached.complete && (rows.length === 0 || rows[rows.length - 1]!.id > from)) return undefined;
    const found: DroppedMessage[] = [];
    for (let i = rows.length - 1; i >= keep && found.length < limit; i--) {
      const { message, id, createdAt, sourceId } = rows[i]!;
      if (id > from) found.push({ id, role: message.role, author: message.author, text: message.text, createdAt, sourceId });
    }
    return found;
  }

  /** The conversation's summary row (the same object every read: callers must not change it); `read` reads it on a miss. */
  summary(conversationId: number, read: () => SummaryState): SummaryState {
    this.checkVersion();
    const cached = this.summaries.get(conversationId);
    if (cached) return cached;
    const state = read();
    if (this.summaries.size >= MAX_CONVERSATIONS) this.summaries.delete(this.summaries.keys().next().value!);
    this.summaries.set(conversationId, state);
    return state;
  }

  /** The conversation's summary row was written here (or may have been): it is read again. */
  summaryChanged(conversationId: number): void {
    this.summaries.delete(conversationId);
  }

  /** Everything is dropped once another connection committed (what it wrote is read from the file). */
  private checkVersion(): void {
    const version = this.version.current();
    if (version !== this.seenVersion) {
      this.dropAll();
      this.seenVersion = version;
    }
  }

  /** Inside the closing transaction: an exchange to add once it commits. */
  appended(conversationId: number, question: CachedMessage, answer: CachedMessage): void {
    this.pending.push({ conversationId, question, answer });
  }

  /** The closing transaction committed: its exchanges join the cached windows. */
  committed(): void {
    for (const { conversationId, question, answer } of this.pending) {
      const cached = this.entries.get(conversationId);
      if (!cached) continue;
      cached.rows.unshift(answer, question);
      if (cached.rows.length > cached.limit) {
        cached.rows.length = cached.limit;
        cached.complete = false;
      }
      const chars = charsOf(cached.rows);
      this.chars += chars - cached.chars;
      cached.chars = chars;
    }
    this.pending = [];
    this.bound();
  }

  /** The closing transaction rolled back: the windows it touched are read again. */
  rolledBack(): void {
    for (const { conversationId } of this.pending) this.drop(conversationId);
    this.pending = [];
  }

  /** The window was cleared (or otherwise changed here outside a turn's closing). */
  drop(conversationId: number): void {
    const cached = this.entries.get(conversationId);
    if (!cached) return;
    this.chars -= cached.chars;
    this.entries.delete(conversationId);
  }

  /** Messages of windows were deleted here (forgetting, pruning): every window and summary is read again. */
  dropAll(): void {
    this.entries.clear();
    this.summaries.clear();
    this.chars = 0;
  }

  private bound(): void {
    while (this.entries.size > MAX_CONVERSATIONS || this.chars > MAX_CHARS) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.drop(oldest.value);
    }
  }
}
