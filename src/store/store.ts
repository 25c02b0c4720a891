import type { AuditStore } from "./audit-store.js";
import type { ConsoleSessionStore } from "./console-session-store.js";
import type { ApprovalStore } from "./approval-store.js";
import type { BackfillStore } from "./backfill-store.js";
import type { BudgetStore } from "./budget-store.js";
import type { ChannelSettingsStore } from "./channel-settings-store.js";
import type { FeedbackStore } from "./feedback-store.js";
import type { DepartureStore } from "./departure-store.js";
import type { InstallationStore } from "./installation-store.js";
import type { RateTable, CachedRates } from "./currency-rates.js";
import type { ScheduleStore } from "./schedule-store.js";
import type { SummaryStore } from "./summary-store.js";
import type { HistoryStore } from "./history-store.js";
import type { ToolApprovalStore } from "./tool-approval-store.js";
import type { RestartNotice, TurnClosing, TurnStart } from "./turn-records.js";
import type { Conversation, ConversationRef, StoredMessage, WorkspaceRef } from "./types.js";
import type { UsageReportStore } from "./usage-report-store.js";
import type { WorkspaceSettingKey, WorkspaceSettings } from "./workspace-settings.js";

/**
 * Everything the bot keeps, as the core needs it (not as SQL). Two implementations: SQLite
 * (src/store/sqlite/, the default) and PostgreSQL (src/store/postgres/, for several processes on
 * several hosts). Every method may be called by several processes sharing one database at once.
 */
export interface Store {
  /** Which engine, for logs and `npm run doctor`. */
  readonly engine: "sqlite" | "postgres";
  readonly conversations: ConversationStore;
  readonly turns: TurnStore;
  readonly queue: QueueStore;
  readonly events: EventClaimStore;
  readonly threads: BotThreadStore;
  readonly toolSettings: ToolSettingsStore;
  readonly workspaceSettings: WorkspaceSettingsStore;
  readonly usage: TokenUsageStore;
  readonly currencyRates: CurrencyRateStore;
  readonly instances: InstanceStore;
  /** Requests to approve tool calls and the decisions on them. */
  readonly approvals: ApprovalStore;
  /** Which tools need approval, per workspace. */
  readonly toolApprovals: ToolApprovalStore;
  /** Per-channel overrides of the workspace's settings. */
  readonly channelSettings: ChannelSettingsStore;
  /** Turns and tokens by user, channel and model, for usage reports and the per-user budget. */
  readonly usageReports: UsageReportStore;
  /** 👍 / 👎 on answers, one vote per person per answer. */
  readonly feedback: FeedbackStore;
  /** Workspaces the app was uninstalled from: schedules stopped, data purged after UNINSTALL_PURGE_DAYS. */
  readonly departures: DepartureStore;
  /** The app's installations in platforms' workspaces (Slack's distribution mode), sealed. */
  readonly installations: InstallationStore;
  /** Summaries of what left the conversations' memory windows, with their identifier indexes. */
  readonly summaries: SummaryStore;
  /** Rows kept only for a while (bot threads, event claims, unused thread seeds), pruned in rounds. */
  readonly retention: RetentionStore;
  /** Scheduled and recurring tasks and their runs. */
  readonly schedules: ScheduleStore;
  /** Spending budgets and what each spent, reserved before each model call (issue 25). */
  readonly budgets: BudgetStore;
  /** The full-text index of what was said in channels, and forgetting deleted messages (issue 24). */
  readonly history: HistoryStore;
  /** Reads of the audit trail for the operator's console: turns, steps, approvals, what runs now, the settings audit. */
  readonly audit: AuditStore;
  /** Backfills of channels' earlier messages into the history index, resumable (issue 24). */
  readonly backfills: BackfillStore;
  /** The operator's console's sessions, for every process on the database. */
  readonly consoleSessions: ConsoleSessionStore;
  /** Resolves when the database answers (health checks); rejects otherwise. */
  ping(): Promise<void>;
  /** What `npm run doctor` reports. */
  inspect(): Promise<StoreReport>;
  /** Closes the connections; idempotent. */
  close(): Promise<void>;
}

export interface StoreReport {
  /** The SQLite file, or the PostgreSQL server and database (never a password). */
  location: string;
  schemaVersion: number;
  turns: number;
  /** Set when the database is damaged (SQLite's quick check). */
  problem?: string;
}

/** Conversations and their memory windows. */
export interface ConversationStore {
  /** The conversation's row, created on first use. */
  open(ref: ConversationRef): Promise<Conversation>;
  /**
   * The newest `exchanges` exchanges, oldest first, trimmed to about `tokenBudget` tokens: older
   * exchanges go first; an exchange that alone exceeds the budget is shortened.
   */
  window(where: ConversationRef | Conversation, exchanges: number, tokenBudget: number): Promise<StoredMessage[]>;
  /** Forgets the window (the messages stay stored for the audit trail, outside any window). */
  clear(ref: ConversationRef): Promise<void>;
}

/** The audit trail: one row per turn, one per tool step; a turn's exchange is written when it closes. */
export interface TurnStore {
  /** Records a turn as running, in its conversation (created if needed), and returns that conversation. */
  start(turn: TurnStart): Promise<Conversation>;
  /**
   * Closes a turn as one unit of work: its outcome, steps, token usage and the exchange (and the
   * seed of a thread opened for the turn) commit together or not at all, so no memory window
   * ever holds half an exchange. Safe to call again after a failure (the runner retries it through
   * an outage): a closing that did commit is not written twice.
   */
  finish(closing: TurnClosing): Promise<void>;
}

/** A turn's place in its conversation's line, across every process sharing the database. */
export interface QueueTicket {
  id: number;
  conversationKey: string;
}

/**
 * A message's claim and its place in its conversation's line, taken together (QueueStore.claim)
 * before anything else about the message is looked up.
 */
export interface PlaceClaim {
  /** The conversation the place is in. */
  conversation: ConversationRef;
  /** The process run taking the place (see InstanceStore). */
  instance: string;
  /**
   * The message's position in its platform's order (a decimal integer below 2^63: Slack's ts in
   * microseconds, a Discord snowflake, the terminal's arrival time in microseconds). A conversation's
   * turns run in this order, ties in the order their places were taken.
   */
  order: string;
  /** The claim, a unique insert (of several processes receiving the message, one wins); none for a question handed to the runner directly. */
  claim?: { platform: string; eventId: string };
  /**
   * For a message in a thread: the thread, whose scope is read in the same statement, and the
   * conversation the place is in instead when it is a bot thread that continues its channel's.
   */
  thread?: { channelId: string; threadId: string; channelConversation: ConversationRef };
  /** False for a message that is the bot's only in one of its threads (no mention, no DM, no command): elsewhere nothing is claimed or taken. */
  addressed: boolean;
  /**
   * The place's admission (QueueStore.admit), when its turn is checked as soon as it is placed (a
   * question handed to the runner directly): the store may do both in one transaction and say so
   * with `admission`; otherwise the runner admits the place itself.
   */
  admit?: PlaceChecks;
}

export type ClaimOutcome = { placed: QueueTicket; scope?: ThreadScope; admission?: QueueAdmission } | { skipped: "duplicate" | "not_addressed" };

/** What a place must pass before its turn may run, counted in the database for every process. */
export interface PlaceChecks {
  /** Refuse when this many other turns already wait ahead of it or run in the conversation (MAX_QUEUED_TURNS). */
  maxDepth: number;
  /** Counts one turn for this user against the limit per window (RATE_LIMIT_PER_USER); none for the operator. */
  rate?: { key: string; limit: number; windowMs: number };
  /**
   * Also starts the turn, as waitForTurn would, when nothing is in its way: one transaction instead
   * of two for most turns. A store may leave it to waitForTurn (`started` is then absent).
   */
  startIfFirst?: boolean;
  /**
   * With startIfFirst: the turn to record as running (TurnStore.start, its `place` this one) when it
   * starts here, in the same transaction; its conversation comes back as `opened`. A store may
   * leave it to the runner's own TurnStore.start (`opened` is then absent).
   */
  opening?: Omit<TurnStart, "place">;
}

export interface WaitOptions {
  signal: AbortSignal;
  staleAfterMs: number;
  /** Called once if the turn has to wait for an earlier place (another process's turn). */
  onBlocked?: () => void;
  /**
   * The waiting process's own places: one of them in the way (running, or before it in the
   * platform's order) that `holds` says it no longer holds (its turn ended and the release failed,
   * or taking it failed after the commit) is released at once instead of after `staleAfterMs`.
   */
  own?: { instance: string; holds(id: number): boolean };
}

/** The place in a waiting turn's way, as the turn sees it. */
export interface QueueHead {
  id: number;
  instance: string;
}

/** Whether a waiting turn may drop the place in its way at once: it is its own process's, and no longer held there. */
export const ownPlaceLost = (head: QueueHead, own: WaitOptions["own"]): boolean => own !== undefined && head.instance === own.instance && !own.holds(head.id);

/**
 * `started`: the place was marked running with its admission (PlaceChecks.startIfFirst); no
 * waitForTurn is needed. `opened`: the turn of PlaceChecks.opening is recorded as running too, in
 * this conversation.
 */
export type QueueAdmission = { ticket: QueueTicket; started?: true; opened?: Conversation } | { refused: "queue_full" | "rate_limited" };

/**
 * Turns of one conversation run one at a time, in their messages' platform order, whichever
 * process received them. A place is taken with the message's claim, before anything else is
 * looked up, and then checked (queue depth, per-user rate) in the database, so the limits hold
 * across processes.
 */
export interface QueueStore {
  /**
   * Claims the message and takes its place, in one statement (one transaction): nothing is written
   * for a message not addressed to the bot outside its threads, and no place for a duplicate.
   */
  claim(claim: PlaceClaim): Promise<ClaimOutcome>;
  /** Checks a claimed place against the limits; a refused place is given up (the turns behind it go on). */
  admit(ticket: QueueTicket, checks: PlaceChecks): Promise<QueueAdmission>;
  /**
   * Resolves once the place's turn may run, and marks it running: no other place of the
   * conversation runs and none comes before it in the platform's order (a place taken after a
   * later one started waits for that one). Rejects with the signal's reason when it aborts. A
   * place seen in the way for longer than `staleAfterMs` (longer than any turn may take) is dropped
   * as abandoned, so the wait is bounded even if a live process lost track of a place.
   */
  waitForTurn(ticket: QueueTicket, options: WaitOptions): Promise<void>;
  /** Gives the place up: the turn's answer was shown (or it failed, or never ran); the next turn may start. */
  leave(ticket: QueueTicket): Promise<void>;
}

/**
 * Platform event ids already handled, so a redelivered event (also to another process) starts no
 * second turn. The intake claims its messages through QueueStore.claim, which writes the same claims.
 */
export interface EventClaimStore {
  /** True for the one caller that claims the id first (a unique insert), false for every other. */
  claim(platform: string, eventId: string): Promise<boolean>;
}

/**
 * Which conversation a follow-up in a bot thread continues: its own ("thread") or, for Slack
 * threads of earlier versions, its channel's ("channel").
 */
export type ThreadScope = "thread" | "channel";

export interface BotThread {
  platform: string;
  workspaceId: string;
  /** The channel the thread belongs to. */
  channelId: string;
  threadId: string;
}

/** Threads the bot opened or was mentioned in: people may keep talking there without mentioning it, across restarts. */
export interface BotThreadStore {
  remember(thread: BotThread, scope?: ThreadScope): Promise<void>;
  /** The thread's scope when it is one of the bot's, else undefined. */
  scopeOf(platform: string, channelId: string, threadId: string): Promise<ThreadScope | undefined>;
}

/** What a pruning round deletes: rows older than these times (ms since the epoch). */
export interface PruneCutoffs {
  /** Bot threads without a turn since then, and thread seeds never used since then. */
  threads: number;
  /** Event claims made before then. */
  claims: number;
  /** Budgets' spend and alerts of windows that started before then (issue 25). */
  spend: number;
}

export interface PruneCounts {
  threads: number;
  seeds: number;
  claims: number;
  /** Rows of budget_spend and budget_alerts. */
  spend: number;
}

/**
 * Pruning, in bounded rounds: each deletes at most `limit` rows of each kind, oldest first, in
 * short transactions. A bot thread past the cutoff that still had a turn since is kept (renewed
 * to that turn's time) and checked again once that turn is as old.
 */
export interface RetentionStore {
  pruneRound(cutoffs: PruneCutoffs, limit: number): Promise<PruneCounts>;
}

export interface ToolSetting {
  tool: string;
  enabled: boolean;
  changedBy: string;
  changedAt: number;
}

/** Per-workspace overrides of the default tool set; absent means "use the default". */
export interface ToolSettingsStore {
  /** The workspace's overrides by tool name; callers must not change the map. */
  overrides(workspace: WorkspaceRef): Promise<ReadonlyMap<string, ToolSetting>>;
  /** Records the change in the settings audit too; every process sees it from its next message. */
  set(workspace: WorkspaceRef, tool: string, enabled: boolean, changedBy: string): Promise<void>;
}

/** What admins set per workspace, with an audit of every change. */
export interface WorkspaceSettingsStore {
  get(workspace: WorkspaceRef): Promise<WorkspaceSettings>;
  /** Sets (or with `undefined`, resets to the default) one setting, and records the change; every process sees it from its next message. */
  set<K extends WorkspaceSettingKey>(workspace: WorkspaceRef, key: K, value: WorkspaceSettings[K], changedBy: string): Promise<void>;
  /**
   * The workspaces of the platform whose admins ignore this user (at most `IGNORING_WORKSPACES_READ`),
   * for direct messages: those of them the user shares with the bot apply there too.
   */
  workspacesIgnoring(platform: string, userId: string): Promise<string[]>;
}

/** Tokens spent per workspace per UTC day, for the daily budget (written when a turn closes). */
export interface TokenUsageStore {
  tokensToday(workspace: WorkspaceRef, time?: number): Promise<number>;
}

/** The currency tool's cached reference rates, newest fetch per source. */
export interface CurrencyRateStore {
  get(source: string): Promise<CachedRates | undefined>;
  put(source: string, table: RateTable): Promise<void>;
}

/**
 * The bot processes sharing the database. Each process run registers and renews a lease; a run
 * whose lease ran out (or whose process is gone) is reaped by whichever process notices: its
 * running turns are marked interrupted and its places in line are released.
 */
export interface InstanceStore {
  /** Registers this process run (its id is INSTANCE_ID's name and a random suffix) with a fresh lease. */
  register(run: InstanceRun): Promise<void>;
  /** Renews the lease; false when the run had been reaped meanwhile (it is registered again). */
  renew(run: InstanceRun): Promise<boolean>;
  /** The other runs on this host, to check their process ids. */
  othersOnHost(run: InstanceRun): Promise<{ id: string; pid: number }[]>;
  /**
   * Reaps runs whose lease is older than `leaseMs` by the database's clock, the runs named in
   * `dead`, and the turns, places in line and pending requests for approval of runs no longer
   * registered. Their running turns are marked interrupted; so are their answered turns that still
   * held their place (the answer was being posted), whose exchange is taken out of memory. The
   * askers of both get a restart notice (see takeRestartNotices). Returns what it marked.
   */
  reap(options: { leaseMs: number; dead?: string[] }): Promise<{ runs: number; turns: number }>;
  /**
   * Takes (deletes and returns) up to `limit` restart notices of these platforms, for this process
   * to post: each is taken by one process only. Notices older than RESTART_NOTICE_KEPT_MS go unsent.
   */
  takeRestartNotices(platforms: readonly string[], limit: number): Promise<RestartNotice[]>;
  /** A clean stop: turns the run leaves running are marked interrupted, its places in line released, its pending requests for approval expired, its record removed. */
  leave(run: InstanceRun): Promise<void>;
}

export interface InstanceRun {
  id: string;
  name: string;
  host: string;
  pid: number;
}
