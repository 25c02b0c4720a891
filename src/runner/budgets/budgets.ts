import type { CallBudget, CallPermit } from "../../agent/call-budget.js";
import type { Usage } from "../../agent/model.js";
import { formatAmount } from "../../config/budget-amount.js";
import type { Logger } from "../../log.js";
import {
  budgetKey,
  type BudgetAmount,
  type BudgetCharge,
  type BudgetLine,
  type BudgetStore,
  type BudgetSlot,
  type StoredBudget,
} from "../../store/budget-store.js";
import type { WorkspaceRef } from "../../store/types.js";
import type { ModelPrices } from "../usage-report.js";
import type { BudgetAlerts } from "./budget-alerts.js";
import { type Slice, SliceBook, sliceSet } from "./budget-slices.js";
import { windowEnd, windowStart } from "./budget-windows.js";
import type { BudgetPeriod, BudgetScope } from "../../contract/commands.js";

/** Who a model call is for: its workspace, channel (a thread's is its channel) and user. */
export interface BudgetSubject extends WorkspaceRef {
  channelId: string;
  userId: string;
  /** The workspace's time zone for days and months (see budgetTimeZone). */
  timeZone: string;
}

/** A budget from the environment, with the variable that set it. */
export interface DefaultBudget extends BudgetAmount {
  scope: BudgetScope;
  period: BudgetPeriod;
  source: string;
}

/** A budget that applies to a call, with where it comes from. */
export interface AppliedBudget extends BudgetSlot, BudgetAmount {
  key: string;
  windowStart: number;
  /** "set by <@U1>" or the variable's name. */
  source: string;
}

export interface BudgetsOptions {
  repository: BudgetStore;
  defaults: readonly DefaultBudget[];
  prices: ModelPrices;
  logger: Logger;
  alerts?: BudgetAlerts;
  now?: () => number;
  /** The answer tokens reserved for a call no budget limits (its max_tokens is then the provider's own). */
  answerCeiling?: number;
}

/** The permit of a call no budget applies to: nothing to reserve, nothing to settle. */
const FREE_PASS: CallPermit = { allowed: true, settle: async () => {} };
/** Fewer answer tokens than this are not worth a call: it is not made. */
const MIN_ANSWER_TOKENS = 64;
const DEFAULT_CEILING = 4_096;
/** A hold outlives any call; one left by a process that died mid-call stops counting after this. */
const HOLD_MS = 30 * 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Calls' worth of each budget a slice holds (see SliceBook)… */
const SLICE_CALLS = 8;
/** …when that is at most this share of every budget in the set; smaller budgets are reserved call by call. */
const SLICE_SHARE = 0.05;
/** A slice is given back and taken anew after this (far sooner than the store lets a hold lapse). */
const SLICE_MS = 60_000;
/** Budgets listed by the operators' report at most. */
const REPORT_ROWS = 1_000;
const SCOPES: readonly BudgetScope[] = ["workspace", "channel", "user"];
const PERIODS: readonly BudgetPeriod[] = ["day", "month"];

/**
 * The spending budgets of workspaces, channels and users, by day and month: which apply to a call,
 * and the CallBudget that reserves each call's cost in the store before it is made and settles it
 * after. Everything that calls a model charges it through `forCall`.
 */
export class Budgets {
  private readonly now: () => number;
  private readonly ceiling: number;
  private readonly slices = new SliceBook();

  constructor(private readonly options: BudgetsOptions) {
    this.now = options.now ?? Date.now;
    this.ceiling = options.answerCeiling ?? DEFAULT_CEILING;
  }

  /** Every budget that applies to calls for `subject`, admins' before the environment's (`stored`: the admins', already read). */
  async applicable(subject: BudgetSubject, stored?: readonly StoredBudget[]): Promise<AppliedBudget[]> {
    stored ??= await this.options.repository.limits(subject);
    const now = this.now();
    const applied: AppliedBudget[] = [];
    for (const scope of SCOPES) {
      // A call that is nobody's (a conversation's summary) counts to its workspace and channel only.
      if (scope === "user" && !subject.userId) continue;
      const subjectId = scope === "workspace" ? "" : scope === "channel" ? subject.channelId : subject.userId;
      for (const period of PERIODS) {
        const own = stored.find((row) => row.scope === scope && row.period === period && row.subject === subjectId);
        const everyUser = scope === "user" ? stored.find((row) => row.scope === scope && row.period === period && row.subject === "*") : undefined;
        const set = own ?? everyUser;
        const fallback = this.options.defaults.find((budget) => budget.scope === scope && budget.period === period);
        const amount = set ? { unit: set.unit, amount: set.amount, source: `set by <@${set.changedBy}>` } : fallback;
        if (!amount) continue;
        applied.push({
          scope,
          subject: subjectId,
          period,
          unit: amount.unit,
          amount: amount.amount,
          source: amount.source,
          key: budgetKey(subject, scope, subjectId, period),
          windowStart: windowStart(period, now, subject.timeZone),
        });
      }
    }
    return applied;
  }

  /**
   * The check before each call of a model for `subject`: the one way every model call is charged
   * (turns, and whatever else calls a model: summaries, scheduled runs). The admins' budgets are
   * read once, at the first call (a change applies from the next turn, as settings do); what each
   * spent is read from the store at every call.
   */
  forCall(subject: BudgetSubject): CallBudget {
    let limits: Promise<readonly StoredBudget[]> | undefined;
    // The budgets that apply, kept until the first of their windows ends (a turn's calls share them).
    let applied: { budgets: AppliedBudget[]; until: number } | undefined;
    return {
      reserve: async (call) => {
        limits ??= this.options.repository.limits(subject).catch((error: unknown) => {
          limits = undefined;
          throw error;
        });
        const stored = await limits;
        const now = this.now();
        if (!applied || now >= applied.until) {
          const budgets = await this.applicable(subject, stored);
          applied = { budgets, until: Math.min(...budgets.map((budget) => windowEnd(budget.period, now, subject.timeZone))) };
        }
        return this.reserve(subject, call.model, call.countPromptTokens, applied.budgets);
      },
    };
  }

  /**
   * At a turn's start: the first budget of `subject` already used up in its window (what the calls
   * settled), with the line that says so; undefined while every budget has room, or none applies.
   * The check before each call still decides each call; this spares a turn that cannot make one.
   */
  async reached(subject: BudgetSubject): Promise<{ scope: BudgetScope; notice: string } | undefined> {
    const applied = await this.applicable(subject);
    if (applied.length === 0) return undefined;
    const spent = await this.options.repository.spent(applied);
    const full = applied.find((budget, i) => spent[i]! >= budget.amount);
    return full && { scope: full.scope, notice: `${capitalized(this.usedUp(full, subject, this.now()))}.` };
  }

  /** Each budget that applies here, its use so far in its window and where it comes from. */
  async describe(subject: BudgetSubject): Promise<string[]> {
    const applied = await this.applicable(subject);
    if (applied.length === 0) return ["Budgets: none (no limit on spending)."];
    const spent = await this.options.repository.spent(applied);
    return [
      "Budgets:",
      ...applied.map((budget, i) => {
        const used = { unit: budget.unit, amount: spent[i]! };
        const percent = Math.min(999, Math.round((100 * spent[i]!) / budget.amount));
        return `- ${capitalized(labelOf(budget))}: ${formatAmount(used)} of ${formatAmount(budget)} used (${percent}%); ${budget.source}`;
      }),
    ];
  }

  /** One person's daily budgets here (their own, or every member's), each with what they spent of it today. */
  async userDay(subject: BudgetSubject): Promise<{ budget: AppliedBudget; spent: number }[]> {
    const applied = (await this.applicable(subject)).filter((budget) => budget.scope === "user" && budget.period === "day");
    const spent = applied.length > 0 ? await this.options.repository.spent(applied) : [];
    return applied.map((budget, i) => ({ budget, spent: spent[i] ?? 0 }));
  }

  /**
   * For operators (`npm run usage -- --budgets`): each budget spent against in its current
   * window, every workspace, with its limit and source. Days and months in UTC here.
   */
  async report(): Promise<string[]> {
    const now = this.now();
    const rows = await this.options.repository.spendSince(windowStart("month", now, "UTC") - DAY_MS, REPORT_ROWS);
    const lines: string[] = [];
    for (const row of rows) {
      const [platform, workspaceId, scope, subjectId] = JSON.parse(row.key) as [string, string, BudgetScope, string];
      const subject = { platform, workspaceId, channelId: scope === "channel" ? subjectId : "", userId: scope === "user" ? subjectId : "", timeZone: "UTC" };
      const budget = (await this.applicable(subject)).find((applied) => applied.key === row.key && applied.windowStart === row.windowStart);
      if (!budget) continue;
      const percent = Math.round((100 * row.amount) / budget.amount);
      lines.push(
        `${platform} ${workspaceId}: ${labelOf(budget)}: ${formatAmount({ unit: budget.unit, amount: row.amount })} of ${formatAmount(budget)} (${percent}%); ${budget.source}`,
      );
    }
    return lines.length > 0 ? lines : ["No budget has been spent against in its current window."];
  }

  private async reserve(subject: BudgetSubject, model: string, countPromptTokens: () => number, applied: AppliedBudget[]): Promise<CallPermit> {
    if (applied.length === 0) return FREE_PASS;
    const promptTokens = countPromptTokens();
    const price = this.options.prices[model];
    const rates: Rate[] = [];
    for (const budget of applied) {
      if (budget.unit === "tokens") rates.push({ input: 1, output: 1 });
      else if (price) rates.push({ input: price.input / 1_000_000, output: price.output / 1_000_000 });
      else return { allowed: false, notice: `${capitalized(labelOf(budget))} is in dollars, but MODEL_PRICES has no price for ${model}.` };
    }
    const lines: BudgetLine[] = applied.map((budget, i) => ({
      key: budget.key,
      windowStart: budget.windowStart,
      limit: budget.amount,
      promptCost: promptTokens * rates[i]!.input,
      tokenCost: rates[i]!.output,
    }));
    const now = this.now();
    const sliced = await this.fromSlice(subject, applied, lines, rates, now);
    if (sliced) return sliced;
    const reservation = await this.options.repository.reserve({ lines, ceiling: this.ceiling, floor: MIN_ANSWER_TOKENS, now, holdMs: HOLD_MS });
    if (!reservation.granted) return { allowed: false, notice: this.reachedNotice(applied[reservation.line]!, subject, now) };
    const limiting = reservation.limitedBy === undefined ? undefined : applied[reservation.limitedBy]!;
    return {
      allowed: true,
      maxTokens: limiting ? reservation.maxTokens : undefined,
      notice: limiting ? this.reachedNotice(limiting, subject, now) : undefined,
      settle: (usage) => this.settle(subject, applied, lines, rates, reservation, usage),
    };
  }

  /**
   * The call reserved from this process's slice of its budgets, taken from the store when there is
   * none (or it ran low, or grew old). Undefined when the budgets are too small for slices, or so
   * near their end that a slice cannot be had: the call is then reserved alone, exactly.
   */
  private async fromSlice(subject: BudgetSubject, applied: AppliedBudget[], lines: BudgetLine[], rates: Rate[], now: number): Promise<CallPermit | undefined> {
    const need = lines.map((line) => line.promptCost + this.ceiling * line.tokenCost);
    if (lines.some((line, i) => need[i]! * SLICE_CALLS > line.limit * SLICE_SHARE)) return undefined;
    const set = sliceSet(lines);
    let slice = this.slices.reserve(set, need, now);
    if (!slice) {
      const old = this.slices.remove(set);
      if (old) await this.giveBack(old);
      const taken = await this.options.repository.reserve({
        lines: lines.map((line) => ({ ...line, promptCost: line.promptCost * SLICE_CALLS })),
        ceiling: this.ceiling * SLICE_CALLS,
        floor: MIN_ANSWER_TOKENS,
        now,
        holdMs: HOLD_MS,
      });
      if (!taken.granted) return undefined;
      const fresh: Slice = { lines, left: [...taken.held], until: now + SLICE_MS, released: false };
      if (taken.maxTokens < this.ceiling * SLICE_CALLS) {
        await this.giveBack(fresh);
        return undefined;
      }
      for (const evicted of this.slices.add(set, fresh)) void this.giveBack(evicted);
      slice = this.slices.reserve(set, need, now)!;
    }
    const from = slice;
    return { allowed: true, settle: (usage) => this.settleFromSlice(subject, applied, lines, rates, need, from, usage) };
  }

  /** A sliced call's real cost: what it reserved beyond it goes back to its slice (to the store once the slice was given back). */
  private async settleFromSlice(
    subject: BudgetSubject,
    applied: AppliedBudget[],
    lines: BudgetLine[],
    rates: Rate[],
    need: number[],
    slice: Slice,
    usage: Usage | "unknown" | undefined,
  ): Promise<void> {
    const costs = lines.map((line, i) => costOf(line, rates[i]!, this.ceiling, usage));
    if (!slice.released) costs.forEach((cost, i) => (slice.left[i]! += need[i]! - cost));
    const held = slice.released ? need : costs;
    // A call that failed before an answer, from a live slice: nothing to write.
    if (costs.every((cost, i) => cost === 0 && held[i] === 0)) return;
    await this.charge(
      subject,
      applied,
      lines.map((line, i) => ({ key: line.key, windowStart: line.windowStart, amount: costs[i]!, held: held[i]! })),
    );
  }

  /** Gives what is left of a slice back to the store (a failure leaves it held until the store lets it lapse). */
  private async giveBack(slice: Slice): Promise<void> {
    slice.released = true;
    if (slice.left.every((left) => left <= 0)) return;
    const charges = slice.lines.map((line, i) => ({ key: line.key, windowStart: line.windowStart, amount: 0, held: Math.max(0, slice.left[i]!) }));
    try {
      await this.options.repository.settle(charges);
    } catch (error) {
      this.options.logger.warn({ err: error, charges }, "could not give a budget slice back; it lapses by itself");
    }
  }

  private async settle(
    subject: BudgetSubject,
    applied: AppliedBudget[],
    lines: BudgetLine[],
    rates: Rate[],
    reservation: { maxTokens: number; held: number[] },
    usage: Usage | "unknown" | undefined,
  ): Promise<void> {
    const charges = lines.map((line, i) => ({
      key: line.key,
      windowStart: line.windowStart,
      amount: costOf(line, rates[i]!, reservation.maxTokens, usage),
      held: reservation.held[i]!,
    }));
    await this.charge(subject, applied, charges);
  }

  /** Writes calls' costs to the store (holds released) and alerts at 80% and 100%; never rejects. */
  private async charge(subject: BudgetSubject, applied: AppliedBudget[], charges: BudgetCharge[]): Promise<void> {
    try {
      const after = await this.options.repository.settle(charges);
      await this.options.alerts?.check(
        subject,
        applied.map((budget, i) => ({ budget, label: labelOf(budget), before: after[i]! - charges[i]!.amount, after: after[i]! })),
      );
    } catch (error) {
      // The hold lapses by itself (see ReserveRequest.holdMs); the call's cost is lost from the budget, which the log says.
      this.options.logger.error({ err: error, workspace: subject.workspaceId, charges }, "could not settle a model call's cost in its budgets");
    }
  }

  private reachedNotice(budget: AppliedBudget, subject: BudgetSubject, now: number): string {
    return `I stopped here: ${this.usedUp(budget, subject, now)}.`;
  }

  /**
   * "this workspace's daily budget (3,000 tokens) is used up until 2026-12-02 00:00 UTC", told to
   * the person whose call it stopped: a user budget is theirs ("your daily budget"), never a mention.
   */
  private usedUp(budget: AppliedBudget, subject: BudgetSubject, now: number): string {
    const back = new Date(windowEnd(budget.period, now, subject.timeZone)).toISOString().slice(0, 16).replace("T", " ");
    const label = budget.scope === "user" ? `your ${periodWord(budget)} budget` : labelOf(budget);
    return `${label} (${formatAmount(budget)}) is used up until ${back} ${subject.timeZone}`;
  }
}

/** A budget's unit per prompt token and per answer token: 1 and 1 for tokens, the model's prices for dollars. */
interface Rate {
  input: number;
  output: number;
}

/** What a call cost in a budget's unit: its real usage; without one (a stream that never told), what it reserved. */
function costOf(line: BudgetLine, rate: Rate, maxTokens: number, usage: Usage | "unknown" | undefined): number {
  if (usage === undefined) return 0;
  if (usage === "unknown") return line.promptCost + maxTokens * line.tokenCost;
  return usage.promptTokens * rate.input + usage.completionTokens * rate.output;
}

const periodWord = (budget: BudgetSlot) => (budget.period === "day" ? "daily" : "monthly");

/** How the budget is named to people: "this channel's daily budget". */
function labelOf(budget: BudgetSlot): string {
  const period = periodWord(budget);
  if (budget.scope === "workspace") return `this workspace's ${period} budget`;
  if (budget.scope === "channel") return `the ${period} budget of <#${budget.subject}>`;
  return `the ${period} budget of <@${budget.subject}>`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
