/*
 * Each turn as an OpenTelemetry trace (OTEL_EXPORTER_OTLP_ENDPOINT): a span for the turn, a child
 * for each model call and each tool call, after the GenAI semantic conventions. The only module
 * that imports the OpenTelemetry packages, and it is imported only when the variable is set.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "../log.js";
import type { TracedTurn, TracedTurnEnd, TurnModelCall, TurnTrace, TurnTracer } from "../runner/turn-trace.js";
import type { StepRecord } from "../store/turn-records.js";
import { botVersion } from "./bot-version.js";

export interface TracingSettings {
  endpoint: string;
  /** "key=value,key=value", values URL-encoded (OTLP's own form). */
  headers?: string;
  serviceName: string;
  /** Spans carry tool arguments, results and error messages only when this is on. */
  content: boolean;
  maxQueueSize: number;
  scheduledDelayMs: number;
  exportTimeoutMs: number;
}

/** The most a shutdown waits for the last spans to go out: a dead collector never holds the exit. */
const FLUSH_AT_SHUTDOWN_MS = 2_000;
/** The longest text a span attribute carries, with OTEL_TRACE_CONTENT on. */
const MAX_CONTENT_CHARS = 2_000;

export interface StartedTracer extends TurnTracer {
  /** Sends what is queued, for at most FLUSH_AT_SHUTDOWN_MS, and stops. Never rejects. */
  shutdown(): Promise<void>;
}

/** Starts the exporter: spans are queued (at most `maxQueueSize`) and sent in batches in the background. */
export function startTurnTracer(settings: TracingSettings, logger: Logger): StartedTracer {
  const exporter = new OTLPTraceExporter({
    url: `${settings.endpoint.replace(/\/+$/, "")}/v1/traces`,
    headers: parseHeaders(settings.headers),
    timeoutMillis: settings.exportTimeoutMs,
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName, "service.version": botVersion() }),
    spanProcessors: [
      new BatchSpanProcessor(exporter, {
        maxQueueSize: settings.maxQueueSize,
        maxExportBatchSize: Math.min(512, settings.maxQueueSize),
        scheduledDelayMillis: settings.scheduledDelayMs,
        exportTimeoutMillis: settings.exportTimeoutMs,
      }),
    ],
  });
  const tracer = provider.getTracer("agent-bot", botVersion());
  let warned = false;
  return {
    begin: (turn) => new OtelTurnTrace(tracer, turn, settings.content),
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), FLUSH_AT_SHUTDOWN_MS);
      });
      try {
        const result = await Promise.race([provider.shutdown().then(() => "sent" as const), limit]);
        if (result === "late") logger.warn({ waitedMs: FLUSH_AT_SHUTDOWN_MS }, "the trace collector did not take the last spans in time; they are dropped");
      } catch (error) {
        if (!warned) logger.warn({ err: error }, "could not send the last spans to the trace collector");
        warned = true;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

class OtelTurnTrace implements TurnTrace {
  private readonly root: Span;

  constructor(
    private readonly tracer: Tracer,
    turn: TracedTurn,
    private readonly content: boolean,
  ) {
    this.root = tracer.startSpan("invoke_agent agent-bot", {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "agent-bot",
        "gen_ai.request.model": modelName(turn.model),
        "bot.turn.id": turn.turnId,
        "bot.platform": turn.platform,
        "bot.workspace.id": turn.workspaceId,
        "bot.channel.id": turn.channelId,
      },
    });
  }

  get traceId(): string {
    return this.root.spanContext().traceId;
  }

  end(end: TracedTurnEnd): void {
    const parent = trace.setSpan(ROOT_CONTEXT, this.root);
    for (const call of end.modelCalls) this.modelCallSpan(call, parent);
    for (const step of end.steps) this.toolSpan(step, parent);
    this.root.setAttributes({
      "bot.turn.status": end.status,
      "bot.turn.outcome": end.outcome,
      "gen_ai.usage.input_tokens": end.usage.promptTokens,
      "gen_ai.usage.output_tokens": end.usage.completionTokens,
    });
    if (end.status === "failed") {
      this.root.setAttribute("error.type", end.outcome);
      this.root.setStatus({ code: SpanStatusCode.ERROR, message: this.content && end.error ? capped(end.error) : end.outcome });
    }
    this.root.end();
  }

  private modelCallSpan(call: TurnModelCall, parent: typeof ROOT_CONTEXT): void {
    const model = modelName(call.model);
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": call.provider,
      "gen_ai.system": call.provider,
      "gen_ai.request.model": model,
      "bot.model_call.purpose": call.purpose,
      "bot.model_call.retry": call.retry,
    };
    if (call.usage) {
      attributes["gen_ai.usage.input_tokens"] = call.usage.promptTokens;
      attributes["gen_ai.usage.output_tokens"] = call.usage.completionTokens;
    }
    if (call.finishReason) attributes["gen_ai.response.finish_reasons"] = [call.finishReason];
    if (call.firstTokenMs !== undefined) attributes["bot.model_call.time_to_first_token_ms"] = Math.round(call.firstTokenMs);
    const span = this.tracer.startSpan(`chat ${model}`, { kind: SpanKind.CLIENT, startTime: call.startedAt, attributes }, parent);
    if (!call.ok) {
      span.setAttribute("error.type", call.outcome);
      span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome });
    }
    span.end(call.startedAt + call.durationMs);
  }

  private toolSpan(step: StepRecord, parent: typeof ROOT_CONTEXT): void {
    const attributes: Attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": step.tool, "bot.step.seq": step.seq };
    if (step.approvalWaitMs !== undefined) attributes["bot.step.approval_wait_ms"] = step.approvalWaitMs;
    if (this.content) {
      attributes["gen_ai.tool.call.arguments"] = capped(JSON.stringify(step.input ?? null));
      if (step.output !== undefined) attributes["gen_ai.tool.call.result"] = capped(step.output);
    }
    const span = this.tracer.startSpan(`execute_tool ${step.tool}`, { kind: SpanKind.INTERNAL, startTime: step.startedAt, attributes }, parent);
    if (step.error !== undefined) {
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: SpanStatusCode.ERROR, message: this.content ? capped(step.error) : "tool_error" });
    }
    span.end(step.startedAt + (step.approvalWaitMs ?? 0) + (step.durationMs ?? 0));
  }
}

/** The model's own name, without the catalog's provider prefix ("anthropic:claude-sonnet-4-5" → "claude-sonnet-4-5"). */
const modelName = (ref: string) => ref.slice(ref.indexOf(":") + 1);

const capped = (text: string) => (text.length > MAX_CONTENT_CHARS ? `${text.slice(0, MAX_CONTENT_CHARS)}…` : text);

/** OTLP's header list: "key=value" pairs, comma-separated, values URL-encoded. */
function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    try {
      headers[key] = decodeURIComponent(value);
    } catch {
      headers[key] = value;
    }
  }
  return headers;
}
