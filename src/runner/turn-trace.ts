import type { ModelCallInfo, ModelCallObserver } from "../agent/model.js";
import type { ModelCallRecord, StepRecord } from "../store/turn-records.js";

/** The most model calls a turn keeps for its record and its trace (the store keeps as many). */
const MAX_CALLS_KEPT = 500;

/** A turn's model call, with its place among the turn's tool steps. */
export type TurnModelCall = ModelCallInfo & ModelCallRecord;

/**
 * A turn's model calls as they end, for its closing write and its trace: the catalog's observer
 * tells each to the turn's own log. Each is placed after the steps begun by then (`stepsBegun`),
 * which orders them on the console's timeline whatever their clocks' resolution.
 */
export class ModelCallLog implements ModelCallObserver {
  readonly calls: TurnModelCall[] = [];

  constructor(private readonly stepsBegun: () => number) {}

  modelCallFinished(info: ModelCallInfo): void {
    if (this.calls.length < MAX_CALLS_KEPT) this.calls.push({ ...info, afterStep: this.stepsBegun() });
  }
}

/** What a trace of a turn is told when the turn begins: names and ids only, never what was said. */
export interface TracedTurn {
  turnId: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  model: string;
}

/** How a traced turn ended, with every call and step it made (each has its own times). */
export interface TracedTurnEnd {
  status: string;
  outcome: string;
  /** The error's detail, for an operator opting into content (see the tracer's options); absent when it answered. */
  error?: string;
  modelCalls: readonly TurnModelCall[];
  steps: Iterable<StepRecord>;
  usage: { promptTokens: number; completionTokens: number };
}

/** One turn's trace: its id from the start (the closing write keeps it), its spans exported once it ends. */
export interface TurnTrace {
  readonly traceId: string;
  /** Ends the turn's span and its children; never throws, never waits (the export runs in the background). */
  end(end: TracedTurnEnd): void;
}

/** Exports turns as traces (src/ops/tracing/, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
export interface TurnTracer {
  begin(turn: TracedTurn): TurnTrace;
}
