import type { FeedbackRow } from "../store/feedback-store.js";
import type { Store } from "../store/store.js";
import type { UsageFigures } from "../store/usage-report-store.js";
import { costOf, type ModelPrices, UsageReports } from "../runner/usage-report.js";

/** One line of the operators' export: a workspace's figures for one period, in all or for one user, channel or model. */
interface UsageLine extends UsageFigures {
  period: string;
  platform: string;
  workspace: string;
  group: "total" | "user" | "channel" | "model" | "kind";
  key: string;
  /** Estimated dollars (total and model lines, where MODEL_PRICES has prices). */
  cost?: number;
  /** 👍 and 👎 on the answers (model and channel lines). */
  votes?: { up: number; down: number };
}

const CSV_HEADER = ["period_days", "platform", "workspace", "group", "key", "turns", "tokens_in", "tokens_out", "cost_usd", "thumbs_up", "thumbs_down"];

/**
 * What /usage shows, for every workspace with turns in the last 30 days: `npm run usage` prints
 * each workspace's report, `npm run usage -- --csv` the same figures as CSV.
 */
export class UsageExport {
  private readonly reports: UsageReports;

  constructor(
    store: Pick<Store, "usageReports">,
    private readonly prices: ModelPrices,
    now: () => number = Date.now,
  ) {
    this.reports = new UsageReports(store.usageReports, prices, now);
  }

  async text(): Promise<string> {
    const workspaces = await this.workspaces();
    if (workspaces.length === 0) return "No turns in the last 30 days.";
    const sections = await Promise.all(workspaces.map(async (ws) => `== ${ws.platform} ${ws.workspaceId}\n${await this.reports.describe(ws)}`));
    return sections.join("\n\n");
  }

  async csv(): Promise<string> {
    const lines: UsageLine[] = [];
    for (const ws of await this.workspaces()) {
      for (const period of await this.reports.periods(ws)) {
        const base = { period: String(period.days), platform: ws.platform, workspace: ws.workspaceId };
        const { summary } = period;
        lines.push({ ...base, group: "total", key: "", ...summary.total, cost: period.cost });
        for (const row of summary.byUser) lines.push({ ...base, group: "user", ...row });
        const { feedback } = summary;
        for (const row of summary.byChannel) lines.push({ ...base, group: "channel", ...row, votes: votesOf(feedback.byChannel, row.key) });
        for (const row of summary.byModel)
          lines.push({ ...base, group: "model", ...row, cost: costOf(row, this.prices), votes: votesOf(feedback.byModel, row.key) });
        // By kind only where something besides people's turns spent tokens (summaries).
        if (summary.byKind.some((row) => row.key !== "turn")) for (const row of summary.byKind) lines.push({ ...base, group: "kind", ...row });
      }
    }
    const cells = lines.map((line) => [
      line.period,
      line.platform,
      line.workspace,
      line.group,
      line.key,
      line.turns,
      line.promptTokens,
      line.completionTokens,
      line.cost?.toFixed(6) ?? "",
      line.votes?.up ?? "",
      line.votes?.down ?? "",
    ]);
    return [CSV_HEADER, ...cells].map((row) => row.map(csvCell).join(",")).join("\n");
  }

  private workspaces() {
    return this.reports.activeWorkspaces();
  }
}

/** The votes of one channel or model (none: 0 and 0). */
function votesOf(rows: readonly FeedbackRow[], key: string): { up: number; down: number } {
  const row = rows.find((candidate) => candidate.key === key);
  return { up: row?.up ?? 0, down: row?.down ?? 0 };
}

/** A CSV field, quoted when it holds a comma, quote or line break (ids and model names rarely do). */
function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
