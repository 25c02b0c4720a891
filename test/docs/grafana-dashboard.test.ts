import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BotMetrics } from "../../src/ops/metrics.js";
import { PROJECT_ROOT } from "../support/child-bot.js";

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string }[];
  gridPos: { h: number; w: number; x: number; y: number };
}

const dashboard = JSON.parse(readFileSync(join(PROJECT_ROOT, "docs/grafana/agent-bot.json"), "utf8")) as {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; query: { query: string } }[] };
};

/** The metric names a PromQL expression reads: the bot's and the process's, the only ones the dashboard may use. */
const metricsIn = (expr: string) => [...expr.matchAll(/\b(?:bot|process|nodejs)_[a-z0-9_]+/g)].map((match) => match[0]);

describe("the Grafana dashboard (docs/grafana/agent-bot.json)", () => {
  it("is a dashboard whose every query reads a metric the bot serves, by its type", async () => {
    // What /metrics serves: the TYPE line of every metric, whether or not it has a sample yet.
    const types = new Map([...(await new BotMetrics().render()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1]!, match[2]!] as const));
    expect(dashboard).toMatchObject({ title: "agent-bot", uid: "agent-bot" });
    const queried = dashboard.panels.filter((panel) => panel.type !== "row");
    expect(queried.length).toBeGreaterThan(10);
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);

    const expressions = [
      ...queried.flatMap((panel) => panel.targets ?? []).map((target) => target.expr),
      ...dashboard.templating.list.map((v) => v.query.query),
    ];
    for (const panel of queried) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    const used = new Set<string>();
    for (const expr of expressions) {
      const names = metricsIn(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        // A histogram's series (_bucket, _sum, _count) are read under its name.
        const series = /^(.+)_(bucket|sum|count)$/.exec(name);
        const base = !types.has(name) && series ? series[1]! : name;
        expect(types.has(base), `${name} in ${expr} is not served`).toBe(true);
        if (base !== name) expect(types.get(base), `${name} in ${expr}`).toBe("histogram");
        used.add(base);
      }
    }
    // What the issue asks the dashboard for: the process's standard metrics, tokens, model latency and time to first token.
    for (const name of [
      "process_cpu_user_seconds_total",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_gc_duration_seconds",
      "nodejs_active_handles_total",
      "process_start_time_seconds",
      "nodejs_version_info",
      "bot_build_info",
      "bot_model_tokens_total",
      "bot_model_call_duration_seconds",
      "bot_model_time_to_first_token_seconds",
    ]) {
      expect(used, name).toContain(name);
    }
  });
});
