import type { WorkspaceSettings } from "../store/workspace-settings-store.js";
import type { TurnRequest } from "./types.js";

export interface AdmissionLimits {
  /** Turns one user may start per minute. */
  ratePerUserPerMinute: number;
  /** Tokens a workspace may spend per UTC day; undefined = no limit. */
  dailyTokenBudget?: number;
  /** Tokens one user may spend per UTC day in a workspace; undefined = no limit. */
  dailyUserTokenBudget?: number;
  maxQuestionChars: number;
  /** Turns waiting or running per conversation. */
  maxQueuedTurns: number;
}

export type Admission =
  | { admitted: true }
  /** `text` undefined: refused silently (ignored users, repeated notices in a flood). */
  | { admitted: false; outcome: RefusalOutcome; text?: string };

export type RefusalOutcome =
  | "ignored_user"
  | "channel_not_allowed"
  | "too_long"
  | "rate_limited"
  | "budget_exhausted"
  | "user_budget_exhausted"
  | "queue_full";

const MINUTE_MS = 60_000;
/** A user hears about the same kind of refusal at most once in this long. */
const NOTICE_EVERY_MS = MINUTE_MS;

export interface AdmissionInput {
  request: TurnRequest;
  settings: WorkspaceSettings;
  queueDepth: number;
  tokensToday: () => number;
  /** Tokens this user's turns spent today in the workspace (read only when DAILY_USER_TOKEN_BUDGET is set). */
  userTokensToday: () => number;
  /** For direct messages: whether the admins of any workspace ignore this user. */
  ignoredAnywhere: () => boolean;
}

/**
 * Decides, in code and before any model call, whether a turn may run: ignored users and roles,
 * the channel allow list, question length, per-user rate, the workspace's and the user's daily
 * token budgets and the conversation's queue. Refusals are told once per minute per user and kind, so a flood
 * gets one polite message, not one per message.
 */
export class TurnAdmission {
  private readonly recentTurns = new Map<string, SlidingWindow>();
  private readonly lastNotice = new Map<string, number>();
  private lastPrune: number;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.lastPrune = now();
  }

  check({ request, settings, queueDepth, tokensToday, userTokensToday, ignoredAnywhere }: AdmissionInput): Admission {
    if (this.now() - this.lastPrune >= MINUTE_MS) this.prune();
    if (isIgnored(request, settings) || (request.isDm && ignoredAnywhere())) return { admitted: false, outcome: "ignored_user" };
    if (!channelAllowed(request, settings)) {
      return this.refuse(request, "channel_not_allowed", "I'm not enabled in this channel. An admin can change that in the bot's settings.");
    }
    if (request.text.length > this.limits.maxQuestionChars) {
      return {
        admitted: false,
        outcome: "too_long",
        text: `Your message is too long for me (${request.text.length} characters; the limit is ${this.limits.maxQuestionChars}). Could you shorten it?`,
      };
    }
    if (queueDepth >= this.limits.maxQueuedTurns) {
      return this.refuse(request, "queue_full", "I'm still working through earlier messages here. Please wait a moment, then ask again.");
    }
    if (this.limits.dailyTokenBudget !== undefined && tokensToday() >= this.limits.dailyTokenBudget) {
      return this.refuse(request, "budget_exhausted", "This workspace has used up today's budget for me. I'll be back tomorrow (UTC).");
    }
    if (this.limits.dailyUserTokenBudget !== undefined && userTokensToday() >= this.limits.dailyUserTokenBudget) {
      return this.refuse(request, "user_budget_exhausted", "You've used up your share of my budget for today. I'll be back for you tomorrow (UTC).");
    }
    if (!request.operator && !this.takeRateSlot(request)) {
      return this.refuse(request, "rate_limited", "You're sending me messages faster than I can take them. Please wait a minute.");
    }
    return { admitted: true };
  }

  private takeRateSlot(request: TurnRequest): boolean {
    const key = `${request.platform}\u0000${request.userId}`;
    let recent = this.recentTurns.get(key);
    if (!recent) {
      recent = new SlidingWindow(MINUTE_MS);
      this.recentTurns.set(key, recent);
    }
    return recent.take(this.now(), this.limits.ratePerUserPerMinute);
  }

  private refuse(request: TurnRequest, outcome: RefusalOutcome, text: string): Admission {
    const key = `${request.platform}\u0000${request.workspaceId}\u0000${request.userId}\u0000${outcome}`;
    const now = this.now();
    const last = this.lastNotice.get(key);
    if (last !== undefined && now - last < NOTICE_EVERY_MS) return { admitted: false, outcome };
    this.lastNotice.set(key, now);
    return { admitted: false, outcome, text };
  }

  /** Keeps the maps bounded: once a minute, forget users with no turn and no notice in the last minute. */
  private prune(): void {
    const now = this.now();
    this.lastPrune = now;
    for (const [key, window] of this.recentTurns) {
      if (window.count(now) === 0) this.recentTurns.delete(key);
    }
    for (const [key, time] of this.lastNotice) if (now - time >= NOTICE_EVERY_MS) this.lastNotice.delete(key);
  }

  /** Entries held in memory (for tests and the benchmark's leak check). */
  get trackedEntries(): number {
    return this.recentTurns.size + this.lastNotice.size;
  }
}

function isIgnored(request: TurnRequest, settings: WorkspaceSettings): boolean {
  if (settings.ignoredUsers?.includes(request.userId)) return true;
  return (request.userRoleIds ?? []).some((role) => settings.ignoredRoles?.includes(role));
}

function channelAllowed(request: TurnRequest, settings: WorkspaceSettings): boolean {
  if (!settings.channels) return true;
  return settings.channels.includes(request.channelId) || (request.parentChannelId !== undefined && settings.channels.includes(request.parentChannelId));
}

/** Times of recent events, oldest first; expired ones are dropped from the front in O(1) each. */
class SlidingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(private readonly spanMs: number) {}

  count(now: number): number {
    while (this.head < this.times.length && now - this.times[this.head]! >= this.spanMs) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  /** Records an event at `now` unless `limit` events already happened within the span. */
  take(now: number, limit: number): boolean {
    if (this.count(now) >= limit) return false;
    this.times.push(now);
    return true;
  }
}
