import type { WorkspaceSettingsStore } from "../store/store.js";
import type { WorkspaceSettings } from "../store/workspace-settings.js";
import type { TurnRequest } from "./types.js";

export interface AdmissionLimits {
  /** Turns one user may start per minute, across every process sharing the database. */
  ratePerUserPerMinute: number;
  maxQuestionChars: number;
  /** Turns waiting or running per conversation, across every process. */
  maxQueuedTurns: number;
}

export type Admission<Place> =
  | { admitted: true; place: Place }
  /** `text` undefined: refused silently (ignored users, repeated notices in a flood). */
  | { admitted: false; outcome: RefusalOutcome; text?: string };

type RefusalOutcome = "ignored_user" | "channel_not_allowed" | "too_long" | "rate_limited" | "budget_exhausted" | "user_budget_exhausted" | "queue_full";

/** A place in line, or why there is none (counted in the database, so the limits hold across processes). */
type PlaceResult<Place> = { place: Place } | { refused: "queue_full" | "rate_limited" };

export interface AdmissionInput<Place> {
  request: TurnRequest;
  settings: WorkspaceSettings;
  /** A spending budget of the turn (workspace, channel or user) already used up, with the line that names it (see Budgets.reached). */
  budgetReached: () => Promise<{ scope: "workspace" | "channel" | "user"; notice: string } | undefined>;
  /** For direct messages: whether the admins of another workspace the sender shares with the bot ignore them (see ignoredInSharedWorkspaces). */
  ignoredElsewhere: () => Promise<boolean>;
  /** Takes the turn's place in its conversation's line, counting the queue and the user's rate. */
  takePlace: () => Promise<PlaceResult<Place>>;
}

const MINUTE_MS = 60_000;
/** A user hears about the same kind of refusal at most once in this long (per process). */
const NOTICE_EVERY_MS = MINUTE_MS;

const REFUSAL_TEXT: Record<Exclude<RefusalOutcome, "ignored_user" | "too_long" | "budget_exhausted" | "user_budget_exhausted">, string> = {
  channel_not_allowed: "I'm not enabled in this channel. An admin can change that in the bot's settings.",
  queue_full: "I'm still working through earlier messages here. Please wait a moment, then ask again.",
  rate_limited: "You're sending me messages faster than I can take them. Please wait a minute.",
};

/**
 * Decides, in code and before any model call, whether a turn may run: ignored users and roles,
 * the channel allow list, question length, the workspace's and the user's daily token budgets,
 * then the conversation's queue and the per-user rate, which the store counts for every process
 * at once.
 * Refusals are told once per minute per user and kind, so a flood gets one polite message, not
 * one per message.
 */
export class TurnAdmission {
  private readonly lastNotice = new Map<string, number>();
  private lastPrune: number;

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.lastPrune = now();
  }

  async check<Place>({ request, settings, budgetReached, ignoredElsewhere, takePlace }: AdmissionInput<Place>): Promise<Admission<Place>> {
    if (this.now() - this.lastPrune >= MINUTE_MS) this.prune();
    if (isIgnored(request, settings) || (request.isDm && (await ignoredElsewhere()))) return { admitted: false, outcome: "ignored_user" };
    if (!channelAllowed(request, settings)) return this.refuse(request, "channel_not_allowed");
    if (request.text.length > this.limits.maxQuestionChars) {
      return {
        admitted: false,
        outcome: "too_long",
        text: `Your message is too long for me (${request.text.length} characters; the limit is ${this.limits.maxQuestionChars}). Could you shorten it?`,
      };
    }
    const reached = await budgetReached();
    if (reached) return this.refuse(request, reached.scope === "user" ? "user_budget_exhausted" : "budget_exhausted", reached.notice);
    const taken = await takePlace();
    if ("refused" in taken) return this.refuse(request, taken.refused);
    return { admitted: true, place: taken.place };
  }

  private refuse(request: TurnRequest, outcome: keyof typeof REFUSAL_TEXT): Admission<never>;
  private refuse(request: TurnRequest, outcome: RefusalOutcome, text: string): Admission<never>;
  private refuse(request: TurnRequest, outcome: RefusalOutcome, text?: string): Admission<never> {
    const key = `${request.platform}\u0000${request.workspaceId}\u0000${request.userId}\u0000${outcome}`;
    const now = this.now();
    const last = this.lastNotice.get(key);
    if (last !== undefined && now - last < NOTICE_EVERY_MS) return { admitted: false, outcome };
    this.lastNotice.set(key, now);
    return { admitted: false, outcome, text: text ?? REFUSAL_TEXT[outcome as keyof typeof REFUSAL_TEXT] };
  }

  /** Keeps the map bounded: once a minute, forget notices older than a minute. */
  private prune(): void {
    const now = this.now();
    this.lastPrune = now;
    for (const [key, time] of this.lastNotice) if (now - time >= NOTICE_EVERY_MS) this.lastNotice.delete(key);
  }

  /** Entries held in memory (for tests and the benchmark's leak check). */
  get trackedEntries(): number {
    return this.lastNotice.size;
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

/**
 * A direct message's sender is ignored by another workspace only where they share it with the
 * bot: the lists of workspaces they are a member of (the platform says which), not every list of
 * the platform, or any admin of any workspace could silence anyone's DMs. The DM's own workspace
 * (a Slack DM's team; Discord's DMs' own, BOT_ADMIN_USER_IDS' list) is checked with its settings.
 */
export async function ignoredInSharedWorkspaces(settings: WorkspaceSettingsStore, request: TurnRequest): Promise<boolean> {
  if (!request.isDm || !request.senderMemberOf) return false;
  const others = (await settings.workspacesIgnoring(request.platform, request.userId)).filter((id) => id !== request.workspaceId);
  if (others.length === 0) return false;
  return (await request.senderMemberOf(others)).length > 0;
}
