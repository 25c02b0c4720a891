import type { ToolCallRequest, ToolCallResult } from "./tool-invoker.js";

/** What the model decided in one call. */
export type Decision =
  | { kind: "final"; text: string }
  | { kind: "calls"; calls: ToolCallRequest[] }
  /** The model's output could not be used; the observation tells it why. */
  | { kind: "invalid"; observation: string };

/** One turn's conversation with the model, in either the native tool-calling or the text ReAct protocol. */
export interface ProtocolSession {
  decide(signal: AbortSignal): Promise<Decision>;
  recordResults(results: ToolCallResult[]): void;
  recordInvalid(observation: string): void;
  /** The `generate` early-stopping call: one last answer without tools, or undefined if none came. */
  finalAttempt(signal: AbortSignal): Promise<string | undefined>;
  /** What the model told the user so far besides its tool calls (a turn cut short by a budget ends with it). */
  answerSoFar(): string;
}
