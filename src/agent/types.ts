import type { Logger } from "../log.js";
import type { Tool, ToolRequestInfo } from "../tools/define-tool.js";
import type { CallBudget } from "./call-budget.js";
import type { ModelCallObserver, Usage } from "./model.js";
import type { RetryPolicy } from "./model-retry.js";
import type { AnswerTextSink, StepEvent } from "../contract/turn-view.js";

export type { Usage } from "./model.js";

/** budget_reached: a model call was not made (or its answer was cut) for want of budget; the output says which. */
type AgentOutcome = "answer" | "direct" | "iteration_limit_generated" | "iteration_limit_forced" | "budget_reached";

export interface AgentResult {
  output: string;
  outcome: AgentOutcome;
  /** Model calls that asked for tools (or produced unreadable output), as LangChain counts iterations. */
  iterations: number;
  usage: Usage;
}

export interface AgentSettings {
  /** The default model, as the catalog names it ("gpt-4o-mini", "anthropic:claude-sonnet-4-5"). */
  model: string;
  /** Retries of a failed model call within a turn. */
  retry: RetryPolicy;
  protocol: "tools" | "react";
  maxIterations: number;
  earlyStopping: "generate" | "force";
  toolTimeoutMs: number;
  /** Tool calls run from one model response; the rest get an error observation (MAX_TOOL_CALLS_PER_STEP). */
  maxToolCallsPerStep: number;
  systemPrompt?: string;
  /** A streamed answer that sends nothing for this long has stalled (OPENAI_TIMEOUT_MS; default a minute). */
  streamIdleTimeoutMs?: number;
}

/** An image shown to the model with the question, its bytes checked to be `mediaType`. */
export interface ImageInput {
  mediaType: string;
  data: Buffer;
}

/** A tool call waiting for a person's approval: what the model asked for. */
export interface ApprovalRequest {
  tool: string;
  /** The arguments as checked, shortened for showing like a step's. */
  args: unknown;
}

/** What became of a request for approval; only an approved call runs. */
export type ApprovalVerdict =
  | { approved: true }
  /** unavailable: the request could not be shown to anyone (the platform cannot ask). */
  | { approved: false; reason: "denied" | "timed_out" | "unavailable" };

/** The tools that need a person's approval before each call, and how to ask for it. */
export interface ToolApproval {
  tools: ReadonlySet<string>;
  /** Resolves with the decision; rejects when `signal` aborts (the turn was cancelled). */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalVerdict>;
}

export interface AgentRun {
  /**
   * What memory keeps of the conversation before `history` (its summary, labelled as such): it
   * comes right after the system prompt, before the history.
   */
  memory?: string;
  /** Earlier exchanges from memory, oldest first. */
  history: { role: "user" | "assistant"; text: string }[];
  input: string;
  /** Images sent with the input as image parts (only for models that see images). */
  images?: ImageInput[];
  /** Extra system instructions for this turn (the workspace's own prompt), after the global ones. */
  instructions?: string;
  /** The only tools this turn may call: whatever else the model names is refused. */
  tools: Tool[];
  request: ToolRequestInfo;
  signal: AbortSignal;
  logger: Logger;
  onStep(event: StepEvent): void;
  /**
   * Set to see the answer while it arrives: model calls then stream, and their text comes here
   * (see AnswerTextEvent). Unset, model calls do not stream.
   */
  onAnswerText?: AnswerTextSink;
  /** Tools that need approval before they run; without it, none does. */
  approval?: ToolApproval;
  /** The model for this turn (a channel's choice); AgentSettings.model otherwise. */
  model?: string;
  /** Token usage is added here as calls complete, so the caller keeps it even if the turn fails. */
  usage?: Usage;
  /** Checked before every model call of the turn (see CallBudget); none: no limit. */
  budget?: CallBudget;
  /** Hears of each request to the model the turn makes, as it ends (the turn's record and trace). */
  modelCalls?: ModelCallObserver;
}

export const emptyUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
