import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ModelCallInfo } from "../agent/model.js";
import type { TurnObserver } from "../runner/turn-observer.js";
import { displayToolName } from "../text.js";
import { botVersion } from "./bot-version.js";

const TURN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TOOL_BUCKETS = [0.005, 0.025, 0.1, 0.25, 1, 2.5, 5, 15, 30];
/** A model request: from a quick classification to a long answer, up to the clients' two-minute limit. */
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
/** Time to first token: what a user waits before the answer starts to appear. */
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30];

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

/** A model's series, looked up once per call by its name (the catalog's few), not by hashing labels. */
interface ModelSeries {
  ok: Counter.Internal;
  error: Counter.Internal;
  seconds: Histogram.Internal<string>;
  firstToken: Histogram.Internal<string>;
  prompt: Counter.Internal;
  completion: Counter.Internal;
}

/**
 * The bot's Prometheus metrics (prom-client), fed by the runner as a TurnObserver and by the model
 * catalog for each request. Label sets stay small: platform, outcome, tool, model, direction.
 * Every observation is a counter or histogram update, once per turn, tool call or model request;
 * nothing is done per streamed chunk. The process's standard metrics (prom-client's defaults: CPU,
 * memory, event-loop lag, GC, handles, start time, Node's version) are collected from the first
 * scrape on: a bot nobody scrapes runs no event-loop monitor.
 */
export class BotMetrics implements TurnObserver {
  private readonly registry = new Registry();
  private readonly turns = new Counter({
    name: "bot_turns_total",
    help: "Turns that ran, by platform, status and outcome.",
    labelNames: ["platform", "status", "outcome"],
    registers: [this.registry],
  });
  private readonly refused = new Counter({
    name: "bot_turns_refused_total",
    help: "Turns refused before running, by platform and reason.",
    labelNames: ["platform", "outcome"],
    registers: [this.registry],
  });
  private readonly turnSeconds = new Histogram({
    name: "bot_turn_duration_seconds",
    help: "Time from the start of a turn to its reply.",
    labelNames: ["platform"],
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });
  private readonly toolCalls = new Counter({
    name: "bot_tool_calls_total",
    help: "Tool calls by tool and result.",
    labelNames: ["tool", "result"],
    registers: [this.registry],
  });
  private readonly toolSeconds = new Histogram({
    name: "bot_tool_duration_seconds",
    help: "Time a tool call ran, without any wait for approval.",
    labelNames: ["tool"],
    buckets: TOOL_BUCKETS,
    registers: [this.registry],
  });
  private readonly approvalSeconds = new Histogram({
    name: "bot_tool_approval_wait_seconds",
    help: "Time a tool call waited for a person's approval before it ran.",
    labelNames: ["tool"],
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: "bot_tokens_total",
    help: "Model tokens used by turns, by platform.",
    labelNames: ["platform"],
    registers: [this.registry],
  });
  private readonly modelCalls = new Counter({
    name: "bot_model_calls_total",
    help: "Requests to a model (each retry counts), by model and result.",
    labelNames: ["model", "result"],
    registers: [this.registry],
  });
  private readonly modelSeconds = new Histogram({
    name: "bot_model_call_duration_seconds",
    help: "Time from sending a request to a model to its whole answer (or its failure).",
    labelNames: ["model"],
    buckets: MODEL_BUCKETS,
    registers: [this.registry],
  });
  private readonly firstTokenSeconds = new Histogram({
    name: "bot_model_time_to_first_token_seconds",
    help: "Time from sending a streamed request to the first text or tool call of its answer.",
    labelNames: ["model"],
    buckets: FIRST_TOKEN_BUCKETS,
    registers: [this.registry],
  });
  private readonly modelTokens = new Counter({
    name: "bot_model_tokens_total",
    help: "Model tokens by model and direction (prompt: sent, completion: received), every request counted (summaries too).",
    labelNames: ["model", "direction"],
    registers: [this.registry],
  });
  private readonly models = new Map<string, ModelSeries>();
  private gauges?: GaugeSource;
  private defaultsCollected = false;

  constructor(private readonly options: BotMetricsOptions = {}) {
    const metrics = this;
    new Gauge({
      name: "bot_turns_in_flight",
      help: "Turns running now.",
      registers: [this.registry],
      collect() {
        if (metrics.gauges) this.set(metrics.gauges.inFlightTurns());
      },
    });
    new Gauge({
      name: "bot_conversation_queues",
      help: "Conversations with turns waiting or running.",
      registers: [this.registry],
      collect() {
        if (metrics.gauges) this.set(metrics.gauges.activeConversationQueues());
      },
    });
    new Gauge({ name: "bot_build_info", help: "The bot's version (always 1).", labelNames: ["version"], registers: [this.registry] })
      .labels({ version: botVersion() })
      .set(1);
  }

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

  modelCallFinished(info: ModelCallInfo): void {
    const series = this.models.get(info.model) ?? this.seriesOf(info.model);
    (info.ok ? series.ok : series.error).inc();
    series.seconds.observe(info.durationMs / 1000);
    if (info.firstTokenMs !== undefined) series.firstToken.observe(info.firstTokenMs / 1000);
    if (info.usage) {
      if (info.usage.promptTokens > 0) series.prompt.inc(info.usage.promptTokens);
      if (info.usage.completionTokens > 0) series.completion.inc(info.usage.completionTokens);
    }
  }

  /** Prometheus text exposition format 0.0.4. */
  async render(): Promise<string> {
    if (!this.defaultsCollected) {
      this.defaultsCollected = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  /** The content type of render()'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }

  private seriesOf(model: string): ModelSeries {
    const series: ModelSeries = {
      ok: this.modelCalls.labels({ model, result: "ok" }),
      error: this.modelCalls.labels({ model, result: "error" }),
      seconds: this.modelSeconds.labels({ model }),
      firstToken: this.firstTokenSeconds.labels({ model }),
      prompt: this.modelTokens.labels({ model, direction: "prompt" }),
      completion: this.modelTokens.labels({ model, direction: "completion" }),
    };
    this.models.set(model, series);
    return series;
  }
}
