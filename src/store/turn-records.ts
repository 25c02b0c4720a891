import { z } from "zod";
import { shorten } from "../text.js";
import type { ConversationRef, StoredAttachment, StoredMessage, WorkspaceRef } from "./types.js";

/**
 * The most characters of a step's input, output or error the audit keeps. The agent already
 * caps what a step carries; this bounds every row whatever the caller passes.
 */
const MAX_STORED_STEP_CHARS = 8_000;
const MAX_STORED_TOOL_NAME = 200;

interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface TurnStart {
  id: string;
  conversation: ConversationRef;
  userId: string;
  /** The process run (see InstanceStore), so a dead process's running turns can be found. */
  instance: string;
  /** What usage reports group by: the model the turn uses and its channel (a thread's channel). */
  context?: { model: string; channelId: string };
  /** The turn's place in line (held until its answer was posted): see InstanceStore.reap. */
  place?: number;
  /** Where its asker is told the bot restarted before finishing, should its process die. */
  noticeTo?: NoticeTarget;
}

/** Where a turn's asker is told that the bot restarted before finishing it: the question's place and message. */
const noticeTargetSchema = z.object({
  location: z.object({ channelId: z.string(), threadId: z.string().optional(), parentChannelId: z.string().optional() }),
  messageId: z.string(),
  isDm: z.boolean().optional(),
  askerId: z.string(),
});
export type NoticeTarget = z.infer<typeof noticeTargetSchema>;

/** An asker to tell, on a platform. */
export interface RestartNotice {
  platform: string;
  target: NoticeTarget;
}

export const noticeTargetJson = (target: NoticeTarget | undefined): string | null => (target ? storableJson(target) : null);

/** A stored notice, or undefined when its row does not read as one (it is dropped). */
export function restartNoticeFromRow(row: { platform: string; target: string }): RestartNotice | undefined {
  try {
    const target = noticeTargetSchema.safeParse(JSON.parse(row.target));
    return target.success ? { platform: row.platform, target: target.data } : undefined;
  } catch {
    return undefined;
  }
}

/** How long a restart notice waits for a process connected to its platform; older ones are dropped unsent. */
export const RESTART_NOTICE_KEPT_MS = 60 * 60 * 1000;

interface TurnEnd {
  status: "answered" | "failed" | "interrupted";
  /** How the turn ended in words the audit can group by: answer, direct, iteration_limit, llm_error, timeout, ... */
  outcome: string;
  iterations: number;
  usage: TurnUsage;
  error?: string;
}

export interface StepRecord {
  seq: number;
  tool: string;
  input: unknown;
  startedAt: number;
  /** Set once the step ended: its output, or why it failed, and how long it took. */
  output?: string;
  error?: string;
  durationMs?: number;
  /** How long the call waited for a person's approval before it ran (not part of durationMs). */
  approvalWaitMs?: number;
}

/** What every form of a model call of a turn holds (the agent's record, the stored row, the audit's view). */
export interface ModelCallFacts {
  model: string;
  provider: string;
  /** turn, side_question or summary. */
  purpose: string;
  retry: boolean;
  /** "ok", or the failure's code. */
  outcome: string;
  startedAt: number;
  durationMs: number;
  /** How many tool steps had begun when it ended (its place among them). */
  afterStep: number;
}

/** One request the turn made to a model (the agent's ModelCallInfo, as the audit keeps it). */
export interface ModelCallRecord extends ModelCallFacts {
  firstTokenMs?: number;
  usage?: TurnUsage;
}

/** Everything that closes a turn, written as one unit of work. */
export interface TurnClosing {
  turnId: string;
  end: TurnEnd;
  steps: Iterable<StepRecord>;
  /** Its requests to the model, in the order they ended. */
  modelCalls?: readonly ModelCallRecord[];
  /** Its OpenTelemetry trace's id, when traces are exported. */
  traceId?: string;
  /** The link people open the question's message with, as its platform made it. */
  link?: string;
  /** The workspace whose daily usage the turn's tokens count towards. */
  workspace: WorkspaceRef;
  /** The question and answer, for an answered turn. */
  exchange?: {
    conversationId: number;
    /**
     * What the person wrote, and a description of the files they shared (never their content);
     * `sourceId`: the platform's id of their message, which the identifier index points at.
     */
    question: { author: string; text: string; attachments?: StoredAttachment[]; sourceId?: string };
    answer: string;
    /**
     * A thread opened for the turn's output: a conversation of its own that starts with this
     * exchange, copied in when the thread is first used (most never are).
     */
    alsoIn?: ConversationRef;
  };
}

/** A step as the audit stores it: every text capped. */
export interface StepRow {
  seq: number;
  tool: string;
  input: string;
  output: string | null;
  error: string | null;
  startedAt: number;
  durationMs: number | null;
  approvalWaitMs: number | null;
}

/**
 * Text as every store keeps it: without NUL characters, which PostgreSQL cannot store in text and
 * which a user, a model or a tool may send.
 */
export const storable = (text: string): string => (text.includes("\u0000") ? text.replaceAll("\u0000", "") : text);

/** A settings value as JSON both stores keep (PostgreSQL's jsonb refuses an escaped NUL too). */
export function storableJson(value: unknown): string {
  const json = JSON.stringify(value);
  // A NUL inside a string is written \u0000: only then is each string cleaned (a replacer is slow).
  return json?.includes("\\u0000") ? JSON.stringify(value, (_key, item: unknown) => (typeof item === "string" ? storable(item) : item)) : json;
}

const capped = (text: string | undefined) => (text === undefined ? null : shorten(storable(text), MAX_STORED_STEP_CHARS));

export function stepRows(steps: Iterable<StepRecord>): StepRow[] {
  return [...steps].map((step) => ({
    seq: step.seq,
    tool: shorten(storable(step.tool), MAX_STORED_TOOL_NAME),
    input: shorten(storableJson(step.input ?? null), MAX_STORED_STEP_CHARS),
    output: capped(step.output),
    error: capped(step.error),
    startedAt: step.startedAt,
    durationMs: step.durationMs ?? null,
    approvalWaitMs: step.approvalWaitMs ?? null,
  }));
}

/** A model call as the audit stores it: whole milliseconds, its seq from 1 in the order the calls ended. */
export interface ModelCallRow extends ModelCallFacts {
  seq: number;
  firstTokenMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
}

/** At most this many calls of a turn are kept (a turn makes AGENT_MAX_ITERATIONS and its tools' side questions, with retries). */
const MAX_STORED_MODEL_CALLS = 500;

export function modelCallRows(calls: readonly ModelCallRecord[] | undefined): ModelCallRow[] {
  return (calls ?? []).slice(0, MAX_STORED_MODEL_CALLS).map((call, index) => ({
    seq: index + 1,
    model: shorten(storable(call.model), MAX_STORED_TOOL_NAME),
    provider: shorten(storable(call.provider), MAX_STORED_TOOL_NAME),
    purpose: call.purpose,
    retry: call.retry,
    outcome: shorten(storable(call.outcome), MAX_STORED_TOOL_NAME),
    startedAt: Math.round(call.startedAt),
    durationMs: Math.round(call.durationMs),
    firstTokenMs: call.firstTokenMs === undefined ? null : Math.round(call.firstTokenMs),
    promptTokens: call.usage?.promptTokens ?? null,
    completionTokens: call.usage?.completionTokens ?? null,
    afterStep: call.afterStep,
  }));
}

/** The UTC day of `time` as "2026-12-01"; the last one is kept (a day's turns ask for the same). */
let dayNumber = Number.NaN;
let dayText = "";
export function utcDay(time = Date.now()): string {
  const day = Math.floor(time / 86_400_000);
  if (day !== dayNumber) {
    dayText = new Date(day * 86_400_000).toISOString().slice(0, 10);
    dayNumber = day;
  }
  return dayText;
}

/** A question's files as the messages table keeps them (JSON), or null when there were none. */
export const attachmentsJson = (attachments: StoredAttachment[] | undefined): string | null =>
  attachments && attachments.length > 0 ? storableJson(attachments) : null;

/** A stored message from its row: the files' descriptions parsed, absent when there were none. */
export function messageFromRow(row: { role: "user" | "assistant"; author: string | null; text: string; attachments: string | null }): StoredMessage {
  const { attachments, ...message } = row;
  return attachments ? { ...message, attachments: JSON.parse(attachments) as StoredAttachment[] } : message;
}

/** Why a turn left running is marked interrupted. */
export const INTERRUPTED_ERROR = "the bot stopped before this turn finished";
/** Why an answered turn whose answer was not (fully) posted when its process died is marked interrupted. */
export const UNSHOWN_ERROR = "the bot stopped before this turn's answer was shown";
