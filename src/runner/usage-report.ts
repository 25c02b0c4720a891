import type { WorkspaceRef } from "../store/types.js";
import type { FeedbackRow } from "../store/feedback-store.js";
import type { DailyModelUsage, UsageFigures, UsageReportStore, UsageRow, UsageSummary } from "../store/usage-report-store.js";

/** Dollars per million tokens in (prompt) and out (completion), by model (MODEL_PRICES). */
export type ModelPrices = Readonly<Record<string, { input: number; output: number }>>;

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The periods a report covers, in whole UTC days ending now (the daily rollup's days): today, and
 * today with the 29 days before it.
 */
const PERIODS = [
  { label: "Today (UTC)", days: 1 },
  { label: "Last 30 days", days: 30 },
] as const;

/** The UTC day (days since the epoch) `time` falls on. */
export const dayOf = (time: number): number => Math.floor(time / DAY_MS);
/** Users and channels listed per period. */
const TOP = 10;

export interface UsagePeriod {
  label: string;
  days: number;
  summary: UsageSummary;
  /** Estimated dollars for the models with a price; undefined when no model of the period has one. */
  cost?: number;
  /** Models used in the period that have no price in MODEL_PRICES. */
  unpriced: string[];
}

/** The estimated cost of one model's tokens, or undefined without a price for it. */
export function costOf(row: UsageRow, prices: ModelPrices): number | undefined {
  const price = prices[row.key];
  if (!price) return undefined;
  return (row.promptTokens * price.input + row.completionTokens * price.output) / 1_000_000;
}

/** /usage, the operators' export and the console: what the usage reports read for a workspace, with a cost estimate. */
export class UsageReports {
  constructor(
    private readonly repository: UsageReportStore,
    private readonly prices: ModelPrices,
    private readonly now: () => number = Date.now,
  ) {}

  async periods(workspace: WorkspaceRef): Promise<UsagePeriod[]> {
    const today = dayOf(this.now());
    return Promise.all(
      PERIODS.map(async ({ label, days }) => {
        const summary = await this.repository.summary(workspace, today - days + 1, TOP);
        const costs = summary.byModel.map((row) => costOf(row, this.prices));
        const priced = costs.filter((cost): cost is number => cost !== undefined);
        return {
          label,
          days,
          summary,
          cost: priced.length > 0 ? priced.reduce((sum, cost) => sum + cost, 0) : undefined,
          unpriced: summary.byModel.filter((_, i) => costs[i] === undefined).map((row) => row.key || "(unrecorded)"),
        };
      }),
    );
  }

  /** Turns and tokens by UTC day and model, for the last `days` days (today included). */
  daily(workspace: WorkspaceRef, days: number): Promise<DailyModelUsage[]> {
    return this.repository.daily(workspace, dayOf(this.now()) - days + 1);
  }

  /** Workspaces with a turn in the last 30 days (today included). */
  activeWorkspaces(): Promise<WorkspaceRef[]> {
    return this.repository.activeWorkspaces(dayOf(this.now()) - 29);
  }

  /** The report as Markdown for an admin (only they see it). */
  async describe(workspace: WorkspaceRef): Promise<string> {
    const periods = await this.periods(workspace);
    const sections = periods.map((period) => {
      const { summary } = period;
      if (summary.total.turns === 0) return `**${period.label}:** no turns.`;
      return [
        `**${period.label}:** ${figures(summary.total)}${costText(period)}`,
        `By user: ${summary.byUser.map((row) => `<@${row.key}> ${figures(row)}`).join("; ")}`,
        `By channel: ${summary.byChannel.map((row) => `<#${row.key}> ${figures(row)}`).join("; ")}`,
        `By model: ${summary.byModel.map((row) => `\`${row.key || "(unrecorded)"}\` ${figures(row)}${modelCost(row, this.prices)}`).join("; ")}`,
        ...(summary.byKind.some((row) => row.key !== "turn") ? [`By kind: ${summary.byKind.map((row) => `${row.key} ${figures(row)}`).join("; ")}`] : []),
        ...feedbackLines(summary),
      ].join("\n");
    });
    const hint = Object.keys(this.prices).length === 0 ? "\n_(Set MODEL_PRICES for a cost estimate.)_" : "";
    return `**Usage here** (top ${TOP} users and channels)\n${sections.join("\n")}${hint}`;
  }
}

const count = (n: number) => n.toLocaleString("en-US");
const votes = (row: FeedbackRow) => `👍 ${count(row.up)} 👎 ${count(row.down)}`;

/** The votes on the period's answers, by model and by channel; nothing where nobody voted. */
function feedbackLines({ feedback }: UsageSummary): string[] {
  if (feedback.byModel.length === 0) return [];
  return [
    `Feedback by model: ${feedback.byModel.map((row) => `\`${row.key || "(unrecorded)"}\` ${votes(row)}`).join("; ")}`,
    `Feedback by channel: ${feedback.byChannel.map((row) => `<#${row.key}> ${votes(row)}`).join("; ")}`,
  ];
}
const figures = (f: UsageFigures) => `${count(f.turns)} turn${f.turns === 1 ? "" : "s"}, ${count(f.promptTokens)} tokens in, ${count(f.completionTokens)} out`;
/** Dollars: cents from $1 on, two significant digits below ($0.053), since small bills are the common case. */
const dollars = (amount: number) => `$${amount >= 1 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`;

function costText(period: UsagePeriod): string {
  if (period.cost === undefined) return "";
  const missing = period.unpriced.length > 0 ? ` (no price for ${period.unpriced.map((name) => `\`${name}\``).join(", ")})` : "";
  return `, about ${dollars(period.cost)}${missing}`;
}

function modelCost(row: UsageRow, prices: ModelPrices): string {
  const cost = costOf(row, prices);
  return cost === undefined ? "" : ` (${dollars(cost)})`;
}
