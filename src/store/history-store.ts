import { createHash } from "node:crypto";
import type { ChannelRef } from "./channel-settings-store.js";
import { storable } from "./turn-records.js";
import type { WorkspaceRef } from "./types.js";

/** Why a message is in the index: a question to the bot, its answer, or a message of a channel with history on. */
type HistoryKind = "question" | "answer" | "message";

/** One message as the history index keeps it. */
export interface HistoryEntry extends ChannelRef {
  /** The thread within the channel (a Slack thread's ts, a Discord thread's channel id). */
  threadId?: string;
  /** The platform's id of the message, unique in its channel (an answer: its question's id and "#answer"). */
  messageId: string;
  kind: HistoryKind;
  authorId: string;
  authorName: string;
  text: string;
  /** Where people open the message (a Discord jump URL, a Slack permalink); none on the terminal. */
  link?: string;
  /** The turn of an exchange (its question and answer). */
  turnId?: string;
  /** ms since the epoch. */
  time: number;
}

/** Messages deleted on the platform, named as its delete event names them. */
export interface DeletedMessages extends WorkspaceRef {
  /** The channel (or Discord thread) they were in. */
  channelId: string;
  messageIds: readonly string[];
}

export interface HistoryQuery extends ChannelRef {
  text: string;
  /** Only messages at or after / before these times (ms since the epoch). */
  from?: number;
  to?: number;
  /** Only messages by this person: their display name (any part of it, any case) or their id. */
  author?: string;
  limit: number;
}

export interface HistoryHit {
  authorId: string;
  authorName: string;
  time: number;
  kind: HistoryKind;
  threadId?: string;
  /** The message's text around the matches, the matching words in **bold**. */
  excerpt: string;
  link?: string;
}

/** What forgetting removed. */
export interface Forgotten {
  /** Index rows deleted. */
  indexed: number;
  /** Exchanges deleted from the memory windows. */
  exchanges: number;
  /**
   * Conversations whose summary had covered a deleted exchange: emptied in the same transaction
   * (their prompt gets the fallback, never the removed text), to be rebuilt without it.
   */
  staleSummaries: number[];
}

/** What a pruning round of the history deleted. */
export interface HistoryPruneCounts {
  indexed: number;
  exchanges: number;
}

/**
 * The full-text index of what was said in channels (SQLite FTS5, PostgreSQL tsvector and GIN), and
 * the forgetting that goes with it: deleting an indexed question also deletes its exchange from the
 * memory windows, so nothing of a deleted message stays behind.
 */
export interface HistoryStore {
  /**
   * Indexes messages, in one transaction; a message indexed before (same channel and id) is
   * replaced, or with `keepIndexed` kept as it is (a backfill never turns a question into a plain message).
   */
  add(entries: readonly HistoryEntry[], options?: { keepIndexed?: boolean }): Promise<void>;
  /** An edit on the platform: the message's new text, if it is indexed. Returns the rows changed. */
  edit(where: DeletedMessages, text: string): Promise<number>;
  /** The best matches in one channel (all its threads), best first. */
  search(query: HistoryQuery): Promise<HistoryHit[]>;
  /**
   * Messages deleted on the platform: their rows go, and a deleted question's exchange (both its
   * messages, in every conversation it was copied to, and its steps' texts) with them; a summary
   * that covered such an exchange is emptied.
   */
  forgetMessages(deleted: DeletedMessages): Promise<Forgotten>;
  /** Everything a person wrote in a workspace: their index rows, their exchanges in every memory window there, and the summaries that covered them. */
  forgetAuthor(workspace: WorkspaceRef, authorId: string): Promise<Forgotten>;
  /** A channel's history turned off: the messages indexed because it was on go at once (exchanges stay, like memory). */
  dropChannel(channel: ChannelRef): Promise<number>;
  /** Deletes at most `limit` index rows and `limit` stored messages older than `cutoff`, oldest first. */
  prune(cutoff: number, limit: number): Promise<HistoryPruneCounts>;
}

/** The token that names a channel in the full-text index: letters and digits only, so every tokenizer keeps it whole. */
export function scopeToken(channel: ChannelRef): string {
  return `s${createHash("sha256")
    .update(JSON.stringify([channel.platform, channel.workspaceId, channel.channelId]))
    .digest("hex")
    .slice(0, 24)}`;
}

/** The most words of a query used: more add nothing a person would mean, and cost the engine. */
const MAX_QUERY_WORDS = 12;
const MAX_WORD_CHARS = 64;
/** The most characters of a message kept in the index (a long answer's first part is what it is about). */
const MAX_INDEXED_CHARS = 4_000;

/**
 * A query's words, as the engines read them: split on white space, each a phrase of its own (the
 * tokenizer splits "v2.3" the same way in the text and in the query), without the characters the
 * query syntaxes would read as operators. Empty when nothing searchable is left.
 */
export function queryWords(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .split(/\s+/u)
      .map((word) => word.replace(/[^\p{L}\p{N}\p{M}._'@-]+/gu, " ").trim())
      .filter((word) => /[\p{L}\p{N}]/u.test(word))
      .map((word) => word.slice(0, MAX_WORD_CHARS))
      // A word said twice is one condition (the engine would walk its list twice).
      .filter((word, i, all) => all.findIndex((other) => other.toLowerCase() === word.toLowerCase()) === i)
      .slice(0, MAX_QUERY_WORDS)
  );
}

/** An entry's text as the index keeps it: storable, and bounded. */
export const indexedText = (text: string): string => storable(text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text);

/** Characters of text an excerpt shows around its first match. */
const EXCERPT_CHARS = 240;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * The part of a message around its first matching word, the matches in **bold**: made the same way
 * for both engines, from the words the query matched (diacritics and case aside, as the index reads them).
 */
function excerptOf(text: string, words: readonly string[]): string {
  const wanted = new Set(words.flatMap((word) => [...word.matchAll(WORD)].map((match) => fold(match[0]))));
  const flat = text.replace(/\s+/g, " ").trim();
  const spans: [number, number][] = [];
  for (const match of flat.matchAll(WORD)) {
    if (wanted.has(fold(match[0]))) spans.push([match.index, match.index + match[0].length]);
  }
  const first = spans[0]?.[0] ?? 0;
  const start = Math.max(0, Math.min(first - EXCERPT_CHARS / 3, flat.length - EXCERPT_CHARS));
  const end = Math.min(flat.length, start + EXCERPT_CHARS);
  let out = "";
  let at = start;
  for (const [from, to] of spans) {
    if (from < start || to > end) continue;
    out += `${flat.slice(at, from)}**${flat.slice(from, to)}**`;
    at = to;
  }
  out += flat.slice(at, end);
  return `${start > 0 ? "…" : ""}${out}${end < flat.length ? "…" : ""}`;
}

/** BM25's constants, as FTS5's bm25() uses them. */
const K1 = 1.2;
const B = 0.75;

/**
 * The candidates ranked by BM25 over the query's words, best first, newest first among equals.
 * The engines hand over a channel's newest matches (a bounded set, found by their full-text
 * index); ranking them here, with document frequencies taken within that set, costs what the set
 * costs, where the engines' own rankers (FTS5's bm25(), PostgreSQL's ts_rank) read every match in
 * the store, or in the channel, for their statistics first.
 */
export function ranked<Row extends { text: string; time: number | string }>(rows: readonly Row[], words: readonly string[]): Row[] {
  const terms = [...new Set(words.flatMap((word) => [...word.matchAll(WORD)].map((match) => fold(match[0]))))];
  const docs = rows.map((row) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const match of row.text.matchAll(WORD)) {
      length++;
      const word = fold(match[0]);
      if (terms.includes(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    return { row, counts, length };
  });
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const idf = new Map(
    terms.map((term) => {
      const having = docs.filter((doc) => doc.counts.has(term)).length;
      return [term, Math.log(1 + (docs.length - having + 0.5) / (having + 0.5))];
    }),
  );
  const score = (doc: (typeof docs)[number]) =>
    terms.reduce((sum, term) => {
      const tf = doc.counts.get(term) ?? 0;
      return sum + (idf.get(term)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / Math.max(1, average)));
    }, 0);
  return docs
    .map((doc) => ({ row: doc.row, score: score(doc) }))
    .sort((x, y) => y.score - x.score || Number(y.row.time) - Number(x.row.time))
    .map((scored) => scored.row);
}

/** A matching row as both engines select it. */
export interface HitRow {
  authorId: string;
  authorName: string;
  time: number | string;
  kind: HistoryKind;
  threadId: string;
  link: string | null;
  text: string;
}

export function hitOf(row: HitRow, words: readonly string[]): HistoryHit {
  return {
    authorId: row.authorId,
    authorName: row.authorName,
    time: Number(row.time),
    kind: row.kind,
    ...(row.threadId ? { threadId: row.threadId } : {}),
    excerpt: excerptOf(row.text, words),
    ...(row.link ? { link: row.link } : {}),
  };
}
