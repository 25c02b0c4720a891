import { BotMetrics } from "../../../src/ops/metrics.js";
import { round } from "../support/stats.js";
import type { BenchPart } from "../types.js";

/** What one turn costs the metrics may stay well inside the noise of a turn's CPU (about 900 µs). */
const GOAL_METRICS_US_PER_TURN = 10;

/**
 * The metrics' own cost on a turn's path: the observations a turn with two tool calls makes
 * (the turn, two tools, two model requests, one of them streamed with a first token), fed
 * straight to BotMetrics, in CPU microseconds per turn. A scrape is timed beside it, without a goal.
 */
export const metricsCostPart: BenchPart = {
  id: "metrics",
  title: "12. Metrics: CPU per turn of the observations a turn makes",
  async run({ quick }) {
    const tools = new Set(["calculator", "wikipedia"]);
    const metrics = new BotMetrics({ isKnownTool: (name) => tools.has(name) });
    const usage = { promptTokens: 500, completionTokens: 40, totalTokens: 540 };
    const call = { model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: false, outcome: "ok", startedAt: 0 } as const;
    const turn = (i: number) => {
      metrics.modelCallFinished({ ...call, ok: true, durationMs: 400 + (i % 700), usage });
      metrics.toolFinished({ tool: "calculator", ok: true, durationMs: i % 5 });
      metrics.toolFinished({ tool: "wikipedia", ok: i % 10 !== 0, durationMs: 100 + (i % 300) });
      metrics.modelCallFinished({ ...call, ok: true, durationMs: 900 + (i % 900), firstTokenMs: 200 + (i % 400), usage });
      metrics.turnFinished({ platform: i % 2 ? "discord" : "slack", status: "answered", outcome: "answer", durationMs: 1500 + (i % 2000), tokens: 1080 });
    };
    const turns = quick ? 5_000 : 100_000;
    for (let i = 0; i < Math.min(turns, 10_000); i++) turn(i);
    // Whole loops are timed: the CPU clock's ticks are coarser than one turn.
    const start = process.cpuUsage();
    for (let i = 0; i < turns; i++) turn(i);
    const used = process.cpuUsage(start);
    const perTurn = (used.user + used.system) / turns;
    const scrapes = quick ? 5 : 50;
    await metrics.render();
    const scraping = process.cpuUsage();
    let bytes = 0;
    for (let i = 0; i < scrapes; i++) bytes = (await metrics.render()).length;
    const scraped = process.cpuUsage(scraping);
    return {
      figures: [
        {
          key: "metrics_cpu_us_per_turn",
          label: "metrics per turn: 1 turn, 2 tools, 2 model requests observed",
          value: round(perTurn),
          unit: "µs",
          goal: `≤ ${GOAL_METRICS_US_PER_TURN}`,
          met: perTurn <= GOAL_METRICS_US_PER_TURN,
        },
        {
          key: "metrics_scrape_cpu_ms",
          label: "one /metrics scrape (process metrics included)",
          value: round((scraped.user + scraped.system) / scrapes / 1000),
          unit: "ms",
        },
      ],
      detail: { turns, scrapes, scrapeBytes: bytes },
    };
  },
};
