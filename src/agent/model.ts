/*
 * The model seam: what the agent loop asks of a language model, in the project's own types.
 * A provider (src/agent/providers/<name>/) maps these to its API and back; nothing above this
 * file knows which API answered. The shape follows openai-agents-js's Model / ModelProvider:
 * a provider hands out models by name, a model answers a request whole or streamed.
 */

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/**
 * Why a model call failed for good. `overloaded`: the provider says it is out of capacity
 * (Anthropic's 529). `interrupted`: a streamed answer broke off part-way through (not retried:
 * part of it was shown).
 */
export type ModelFailure = "unreachable" | "timeout" | "rate_limited" | "overloaded" | "server_error" | "auth" | "bad_request" | "interrupted";

/** An image in a user message, already base64 (every API takes it so; encoded once per turn, not per call). */
interface ImagePart {
  type: "image";
  mediaType: string;
  base64: string;
}

export type UserContentPart = { type: "text"; text: string } | ImagePart;

export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | UserContentPart[] }
  /** `toolCalls` only when the model asked for tools (the key is absent otherwise). */
  | { role: "assistant"; content: string | null; toolCalls?: readonly ModelToolCall[] }
  | { role: "tool"; toolCallId: string; content: string };

/** A tool call as the model wrote it: `arguments` is its JSON text, unchecked (the invoker reads it). */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A tool as offered to the model. A registered Tool is one as it is, so a channel's list is passed without copying. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments object. */
  readonly jsonSchema: Record<string, unknown>;
}

export interface ModelRequest {
  messages: readonly ModelMessage[];
  tools?: readonly ToolSpec[];
  /** `none`: the tools are described but may not be called (the last answer at the iteration limit). */
  toolChoice?: "none";
  /** Sequences that end the answer before they are written (the text protocol's). */
  stop?: readonly string[];
  /** The most tokens the answer may take (a budget's remainder); the provider's default otherwise. */
  maxTokens?: number;
}

/** A whole answer: its text (null when there was none) and the tools it asks for. */
export interface ModelReply {
  text: string | null;
  toolCalls: readonly ModelToolCall[];
  usage?: Usage;
}

/** A piece of a tool call while it streams: pieces of one call share an index; its arguments arrive in fragments. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

/** Where a provider hands what a streamed answer brings, as it arrives. */
export interface StreamSink {
  /** A chunk arrived, whatever it held: the stream is not stalled. */
  received(): void;
  text(delta: string): void;
  toolCall(delta: ToolCallDelta): void;
  /** The answer's token usage, once the stream says it. */
  usage(usage: Usage): void;
}

/** A streamed answer whose response has begun: read it once, or abort it. */
export interface ModelStream {
  /** Reads to the end, handing each piece to `sink`; rejects when the stream breaks. */
  read(sink: StreamSink): Promise<void>;
  /** Stops reading (a stall); `read` then ends, quietly or by rejecting. */
  abort(): void;
}

/** What an error from a model call means: which failure it is, and whether another attempt may succeed. */
export interface ModelErrorVerdict {
  failure: Exclude<ModelFailure, "interrupted">;
  retryable: boolean;
  /** How long the server asked to wait before the retry (Retry-After), if it did. */
  retryAfterMs?: number;
}

/** Why a request is made: the turn's own loop, a tool's side question, a conversation's summary. */
export type CallPurpose = "turn" | "side_question" | "summary";

/** One request to a model as its observers see it, reported once when it ends (each retry is a request of its own). */
export interface ModelCallInfo {
  /** The model as the catalog names it ("gpt-4o-mini", "anthropic:claude-sonnet-4-5"): one of the configured few. */
  model: string;
  provider: string;
  purpose: CallPurpose;
  /** It repeats a request that failed (see ModelCaller's retries). */
  retry: boolean;
  ok: boolean;
  /** "ok", or why it failed: a ModelFailure, or "cancelled" (the turn stopped). */
  outcome: string;
  /** Epoch ms when it was sent. */
  startedAt: number;
  /** From sending the request to the whole answer, or the failure. */
  durationMs: number;
  /** Streamed calls that brought anything: from sending the request to the first text or tool call. */
  firstTokenMs?: number;
  /** As the provider reported it; absent when it did not (a failure, a stream cut off). */
  usage?: Usage;
  /** Why the answer ended, as the reply shows it: "tool_calls" when it asked for tools, else "stop"; absent when it failed. */
  finishReason?: "stop" | "tool_calls";
}

export interface ModelCallObserver {
  modelCallFinished(info: ModelCallInfo): void;
}

/**
 * What the caller says of a request, for the ones who observe it (see model-observer.ts): why it
 * is made, whether it retries one, and an observer of its own besides the catalog's (a turn's record).
 */
export interface CallTag {
  purpose: CallPurpose;
  retry: boolean;
  observer?: ModelCallObserver;
}

/** One model of one provider. A provider's model ignores `tag`; the catalog's observed wrapper reads it. */
export interface Model {
  complete(request: ModelRequest, signal: AbortSignal, tag?: CallTag): Promise<ModelReply>;
  /** Resolves once the response has begun (so a refused request can be retried), before any text is read. */
  stream(request: ModelRequest, signal: AbortSignal, tag?: CallTag): Promise<ModelStream>;
  /** Reads whatever this model's client threw. */
  classifyError(error: unknown): ModelErrorVerdict;
}

export interface ModelProvider {
  readonly name: string;
  /** The model of that name (as the provider spells it); the same object for the same name. */
  model(name: string): Model;
  /** The models the server lists (for `npm run doctor`). */
  listModels(): Promise<string[]>;
}
