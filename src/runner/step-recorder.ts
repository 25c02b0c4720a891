import type { Logger } from "../log.js";
import type { StepRecord } from "../store/turn-records.js";
import type { TurnObserver } from "./turn-observer.js";
import type { StepEvent, TurnView } from "../contract/turn-view.js";

/**
 * Keeps each tool step for the audit (written with the turn's closing transaction) and hands it
 * to the view as it happens, without making the agent wait on the platform.
 */
export class StepRecorder {
  private readonly steps = new Map<number, StepRecord>();

  constructor(
    private readonly view: TurnView,
    private readonly logger: Logger,
    private readonly observer?: TurnObserver,
  ) {}

  record(event: StepEvent): void {
    const step = this.steps.get(event.seq) ?? { seq: event.seq, tool: event.tool, input: undefined, startedAt: Date.now() };
    if (event.type === "tool_started") {
      step.input = event.args;
      this.steps.set(event.seq, step);
    } else {
      step.output = event.type === "tool_finished" ? event.output : undefined;
      step.error = event.type === "tool_failed" ? event.error : undefined;
      step.durationMs = event.durationMs;
      step.approvalWaitMs = event.approvalWaitMs;
      this.observer?.toolFinished?.({
        tool: event.tool,
        ok: event.type === "tool_finished",
        durationMs: event.durationMs,
        approvalWaitMs: event.approvalWaitMs,
      });
    }
    try {
      this.view.step(event);
    } catch (error) {
      this.logger.warn({ err: error, step: event.seq }, "could not show a tool step");
    }
  }

  /** Every step has ended by the time the turn closes: the agent settles its tool calls before it returns or throws. */
  records(): Iterable<StepRecord> {
    return this.steps.values();
  }

  /** Steps begun so far. */
  get begun(): number {
    return this.steps.size;
  }

  get toolsUsed(): string[] {
    return [...this.steps.values()].map((step) => step.tool);
  }
}
