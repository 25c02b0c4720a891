import type { ApprovalRecord } from "./approval-store.js";
import type { ModelCallFacts } from "./turn-records.js";
import type { WorkspaceRef } from "./types.js";

/** Which turns a list shows; every condition is optional but the page size. */
export interface TurnFilter {
  workspace?: WorkspaceRef;
  /** The channel (a thread's turns count for its channel). */
  channelId?: string;
  userId?: string;
  /** A status (answered, failed, interrupted, running) or an outcome (answer, timeout, llm_error…). */
  outcome?: string;
  /** Turns with at least one step of this tool. */
  tool?: string;
  /** Started at or after (ms). */
  from?: number;
  /** Started before (ms). */
  to?: number;
  /** Keyset paging: turns that started before this one (newest first). */
  after?: TurnCursor;
  limit: number;
}

interface TurnCursor {
  startedAt: number;
  id: string;
}

export interface TurnRow {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  threadId?: string;
  userId: string;
  status: string;
  outcome?: string;
  kind: string;
  model?: string;
  startedAt: number;
  durationMs?: number;
  iterations: number;
  promptTokens: number;
  completionTokens: number;
  error?: string;
}

export interface StepRow {
  seq: number;
  tool: string;
  input: string;
  output?: string;
  error?: string;
  startedAt: number;
  durationMs?: number;
}

/** One request the turn made to a model, as the audit reads it back (see turn_model_calls). */
export interface ModelCallView extends ModelCallFacts {
  seq: number;
  firstTokenMs?: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** A person's 👍 / 👎 on the turn's answer. */
export interface FeedbackView {
  userId: string;
  vote: "up" | "down";
  votedAt: number;
}

export interface TurnDetail extends TurnRow {
  /** The question and the answer, as the memory keeps them (absent when the turn wrote no exchange). */
  question?: string;
  answer?: string;
  steps: StepRow[];
  approvals: ApprovalRow[];
  modelCalls: ModelCallView[];
  feedback: FeedbackView[];
  /** Its OpenTelemetry trace, when traces were exported. */
  traceId?: string;
  /** The link to the question's message on its platform (the answer replies to it). */
  link?: string;
}

export type ApprovalRow = Omit<ApprovalRecord, "args" | "instance"> & {
  /** The arguments as stored (JSON, shortened). */
  args: string;
};

/** What the overview counts, across every process sharing the database. */
export interface ActivityCounts {
  running: number;
  /** Places in line whose turn has not started. */
  waiting: number;
  /** Turns that failed since the time asked for. */
  failed: number;
}

/** One row of the settings audit. */
export interface SettingsChange {
  id: number;
  key: string;
  value: string;
  changedBy: string;
  changedAt: number;
}

/** The most rows one read returns, whatever the caller asks. */
const MAX_PAGE = 200;

/**
 * Reads of the audit trail for the operator's console: turns and their steps, approvals, what runs
 * now, the settings audit (usage is the usage reports', UsageReportStore). Each goes through an index and a LIMIT (keyset paging),
 * so a page is as fast at a million turns as at a hundred.
 */
export interface AuditStore {
  turns(filter: TurnFilter): Promise<TurnRow[]>;
  turn(id: string): Promise<TurnDetail | undefined>;
  /** Newest first; `pending` true: only pending, false: only decided. */
  approvals(workspace: WorkspaceRef | undefined, pending: boolean, limit: number): Promise<ApprovalRow[]>;
  activity(failedSince: number): Promise<ActivityCounts>;
  /** Workspaces the bot has talked in, sorted. */
  workspaces(limit: number): Promise<WorkspaceRef[]>;
  /** Channels of a workspace the bot has talked in, sorted. */
  channels(workspace: WorkspaceRef, limit: number): Promise<string[]>;
  /** The id of the workspace's newest settings change (0 for none): what a settings form is a version of. */
  settingsVersion(workspace: WorkspaceRef): Promise<number>;
  /** The workspace's settings changes after `version`, oldest first. */
  changesSince(workspace: WorkspaceRef, version: number, limit: number): Promise<SettingsChange[]>;
  /** The database's size in bytes. */
  sizeBytes(): Promise<number>;
}

export const clampPage = (limit: number) => Math.max(1, Math.min(MAX_PAGE, Math.floor(limit)));
