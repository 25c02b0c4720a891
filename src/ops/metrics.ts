import type { TurnObserver } from "../runner/turn-observer.js";
import { displayToolName } from "../text.js";

type Labels = Record<string, string>;

const TURN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TOOL_BUCKETS = [0.005, 0.025, 0.1, 0.25, 1, 2.5, 5, 15, 30];

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels, by = 1): void {
    const key = labelKey(labels);
    const entry = this.values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.values.set(key, entry);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${formatLabels(labels)} ${value}`);
    return lines;
  }
}

class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: number[],
  ) {}

  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    const entry = this.series.get(key) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((bound, i) => {
      if (value <= bound) entry.counts[i]!++;
    });
    entry.sum += value;
    entry.count++;
    this.series.set(key, entry);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket${formatLabels({ ...labels, le: String(bound) })} ${counts[i]}`));
      lines.push(`${this.name}_bucket${formatLabels({ ...labels, le: "+Inf" })} ${count}`);
      lines.push(`${this.name}_sum${formatLabels(labels)} ${round(sum)}`);
      lines.push(`${this.name}_count${formatLabels(labels)} ${count}`);
    }
    return lines;
  }
}

export interface BotMetricsOptions {
  /**
   * Whether a tool name is one the bot has (the registry). Others are labelled "unknown":
   * a model inventing names must not add a dozen series per name to every scrape.
   */
  isKnownTool?(name: string): boolean;
}

export interface GaugeSource {
  inFlightTurns(): number;
  activeConversationQueues(): number;
}

/** The bot's Prometheus metrics, fed by the runner as a TurnObserver. Label sets stay small: platform, outcome, tool. */
export class BotMetrics implements TurnObserver {
  private readonly turns = new Counter("bot_turns_total", "Turns that ran, by platform, status and outcome.");
  private readonly refused = new Counter("bot_turns_refused_total", "Turns refused before running, by platform and reason.");
  private readonly turnSeconds = new Histogram("bot_turn_duration_seconds", "Time from the start of a turn to its reply.", TURN_BUCKETS);
  private readonly toolCalls = new Counter("bot_tool_calls_total", "Tool calls by tool and result.");
  private readonly toolSeconds = new Histogram("bot_tool_duration_seconds", "Time a tool call ran, without any wait for approval.", TOOL_BUCKETS);
  private readonly approvalSeconds = new Histogram(
    "bot_tool_approval_wait_seconds",
    "Time a tool call waited for a person's approval before it ran.",
    TURN_BUCKETS,
  );
  private readonly tokens = new Counter("bot_tokens_total", "Model tokens used, by platform.");
  private gauges?: GaugeSource;

  constructor(private readonly options: BotMetricsOptions = {}) {}

  bindGauges(source: GaugeSource): void {
    this.gauges = source;
  }

  turnFinished(info: { platform: string; status: string; outcome: string; durationMs: number; tokens: number }): void {
    this.turns.inc({ platform: info.platform, status: info.status, outcome: info.outcome });
    this.turnSeconds.observe({ platform: info.platform }, info.durationMs / 1000);
    if (info.tokens > 0) this.tokens.inc({ platform: info.platform }, info.tokens);
  }

  turnRefused(info: { platform: string; outcome: string }): void {
    this.refused.inc(info);
  }

  toolFinished(info: { tool: string; ok: boolean; durationMs: number; approvalWaitMs?: number }): void {
    const tool = this.options.isKnownTool?.(info.tool) === false ? "unknown" : displayToolName(info.tool);
    this.toolCalls.inc({ tool, result: info.ok ? "ok" : "error" });
    this.toolSeconds.observe({ tool }, info.durationMs / 1000);
    if (info.approvalWaitMs !== undefined) this.approvalSeconds.observe({ tool }, info.approvalWaitMs / 1000);
  }

  /** Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines = [
      ...this.turns.render(),
      ...this.refused.render(),
      ...this.turnSeconds.render(),
      ...this.toolCalls.render(),
      ...this.toolSeconds.render(),
      ...this.approvalSeconds.render(),
      ...this.tokens.render(),
    ];
    if (this.gauges) {
      lines.push("# HELP bot_turns_in_flight Turns running now.", "# TYPE bot_turns_in_flight gauge");
      lines.push(`bot_turns_in_flight ${this.gauges.inFlightTurns()}`);
      lines.push("# HELP bot_conversation_queues Conversations with turns waiting or running.", "# TYPE bot_conversation_queues gauge");
      lines.push(`bot_conversation_queues ${this.gauges.activeConversationQueues()}`);
    }
    lines.push(...memoryGauges());
    return `${lines.join("\n")}\n`;
  }
}

/**
 * The process's memory under the names Prometheus's own Node clients use, so existing dashboards
 * read them: resident memory (what a small VPS runs out of), and V8's heap, reserved and live.
 * Read at each scrape only.
 */
function memoryGauges(): string[] {
  const memory = process.memoryUsage();
  const gauge = (name: string, help: string, value: number) => [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`];
  return [
    ...gauge("process_resident_memory_bytes", "Resident memory size in bytes.", memory.rss),
    ...gauge("nodejs_heap_size_total_bytes", "V8 heap reserved, in bytes.", memory.heapTotal),
    ...gauge("nodejs_heap_size_used_bytes", "V8 heap in use, in bytes.", memory.heapUsed),
    ...gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects (buffers among them), in bytes.", memory.external),
  ];
}

const labelKey = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

function formatLabels(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return "";
  return `{${entries.map(([key, value]) => `${key}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`).join(",")}}`;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
