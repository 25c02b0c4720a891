import { spawn } from "node:child_process";
import { silentLogger } from "../../../src/log.js";
import { startTurnTracer } from "../../../src/ops/tracing.js";
import type { TracedTurnEnd } from "../../../src/runner/turn-trace.js";
import { median, round } from "../support/stats.js";
import type { BenchPart } from "../types.js";

/** A collector in a process of its own (its parsing is not the bot's CPU): takes every export and answers 200. */
const SINK = `const s = require("node:http").createServer((q, r) => { q.resume(); q.on("end", () => r.writeHead(200, { "content-type": "application/json" }).end("{}")); });
s.listen(0, "127.0.0.1", () => process.stdout.write(String(s.address().port) + "\\n"));`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What OTEL_EXPORTER_OTLP_ENDPOINT costs a turn: the tracer's spans for a turn with two model
 * calls and one tool call (its begin, its end, the batch export to a collector in another
 * process), in CPU µs per turn, against the same loop without a tracer (what a bot without the
 * variable runs: no tracer at all). Alternating blocks; each block's CPU includes the exports it
 * queued (a pause after it lets them go out, the same pause on both sides).
 */
export const tracingCostPart: BenchPart = {
  id: "tracing",
  title: "15. Traces (OTEL_EXPORTER_OTLP_ENDPOINT): CPU per turn of its spans and their export",
  async run({ quick, note }) {
    const sink = spawn(process.execPath, ["-e", SINK]);
    const port = await new Promise<string>((resolve) => sink.stdout.once("data", (data) => resolve(String(data).trim())));
    const settings = {
      endpoint: `http://127.0.0.1:${port}`,
      serviceName: "bench",
      content: false,
      maxQueueSize: 8192,
      scheduledDelayMs: 20,
      exportTimeoutMs: 5_000,
    };
    const tracer = startTurnTracer(settings, silentLogger());
    const turnEnd = (): TracedTurnEnd => {
      const now = Date.now();
      const call = { model: "gpt-4o-mini", provider: "openai", purpose: "turn", retry: false, ok: true, outcome: "ok", durationMs: 400 } as const;
      const usage = { promptTokens: 500, completionTokens: 40, totalTokens: 540 };
      return {
        status: "answered",
        outcome: "answer",
        modelCalls: [
          { ...call, startedAt: now, usage, finishReason: "tool_calls", afterStep: 0 },
          { ...call, startedAt: now + 410, usage, finishReason: "stop", afterStep: 1 },
        ],
        steps: [{ seq: 1, tool: "calculator", input: { expression: "6*7" }, startedAt: now + 401, output: "42", durationMs: 2 }],
        usage: { promptTokens: 1000, completionTokens: 80 },
      };
    };
    const turn = { turnId: "t", platform: "discord", workspaceId: "g1", channelId: "c1", model: "gpt-4o-mini" };
    const perBlock = quick ? 100 : 500;
    const blocks = quick ? 4 : 16;
    const results: Record<"off" | "on", number[]> = { off: [], on: [] };
    try {
      for (let i = 0; i < perBlock; i++) tracer.begin(turn).end(turnEnd());
      await sleep(100);
      for (let block = 0; block < blocks; block++) {
        const side = block % 2 === 0 ? "off" : "on";
        const start = process.cpuUsage();
        for (let i = 0; i < perBlock; i++) {
          const end = turnEnd();
          if (side === "on") tracer.begin(turn).end(end);
        }
        await sleep(100);
        const used = process.cpuUsage(start);
        results[side].push((used.user + used.system) / perBlock);
      }
      note(`tracing: off ${results.off.map((us) => round(us)).join(", ")} / on ${results.on.map((us) => round(us)).join(", ")} µs a turn`);
    } finally {
      await tracer.shutdown();
      sink.kill();
    }
    const off = median(results.off);
    const on = median(results.on);
    return {
      figures: [
        {
          key: "tracing_cpu_us_per_turn",
          label: "tracing on, over off: 1 turn, 2 model calls, 1 tool (median of alternating blocks)",
          value: round(on - off),
          unit: "µs",
        },
        { key: "tracing_off_cpu_us_per_turn", label: "the same loop without a tracer (a bot without the variable has none)", value: round(off), unit: "µs" },
      ],
      detail: { perBlock, blocks, offUs: results.off, onUs: results.on },
    };
  },
};
