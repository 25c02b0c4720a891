import { LlmError, llmError } from "./llm-error.js";
import type { ModelReply, ModelStream, ModelToolCall, StreamSink, ToolCallDelta, Usage } from "./model.js";
import { TurnCancelled } from "./tool-invoker.js";

/** A model that has sent nothing for this long has stalled: the clients' timeouts only cover the response's headers. */
export interface StreamLimits {
  idleTimeoutMs: number;
}

/** Far more parallel calls than any model makes (and MAX_TOOL_CALLS_PER_STEP runs only 8 of them). */
const MAX_CALL_INDEX = 128;

const STALLED = "The language model stopped sending its answer part-way through. Please try again in a moment.";

/**
 * Reads a streamed answer, of any provider, into one reply: text deltas go to `onText` as they
 * arrive; tool-call deltas are assembled by index into whole calls, so no tool runs on half its
 * arguments; usage is added as the stream reports it. A stream that breaks or stalls part-way
 * is an LlmError ("interrupted", or "timeout"); a cancelled turn is TurnCancelled.
 */
export async function readStream(
  stream: ModelStream,
  usage: Usage,
  onText: (text: string) => void,
  signal: AbortSignal,
  limits: StreamLimits,
): Promise<ModelReply> {
  let content = "";
  let sawContent = false;
  const calls: { id: string; name: string; arguments: string }[] = [];
  let stalled = false;
  const idle = setTimeout(() => {
    stalled = true;
    stream.abort();
  }, limits.idleTimeoutMs);
  const sink: StreamSink = {
    received: () => idle.refresh(),
    text: (delta) => {
      sawContent = true;
      content += delta;
      onText(delta);
    },
    toolCall: (delta) => mergeToolCall(calls, delta),
    usage: (reported) => addUsage(usage, reported),
  };
  try {
    await stream.read(sink);
    // The clients end the iteration quietly when they are aborted: a cut-off stream is not an answer.
    if (signal.aborted || stalled) throw new Error("the stream was aborted");
  } catch (error) {
    if (signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
    if (stalled) throw new LlmError("timeout", STALLED, { cause: error });
    throw llmError("interrupted", error);
  } finally {
    clearTimeout(idle);
  }
  const toolCalls = calls
    .filter((call) => call.name !== "")
    .map((call, index): ModelToolCall => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments }));
  return { text: sawContent ? content : null, toolCalls };
}

/** A tool call arrives in pieces: its id and name first, its arguments in fragments, all under one index. */
function mergeToolCall(calls: { id: string; name: string; arguments: string }[], part: ToolCallDelta): void {
  // A huge or missing index is a broken stream, not a reason to allocate a huge array.
  const index = Number.isInteger(part.index) && part.index >= 0 && part.index < MAX_CALL_INDEX ? part.index : calls.length;
  for (let i = calls.length; i <= index; i++) calls.push({ id: "", name: "", arguments: "" });
  const call = calls[index]!;
  if (part.id) call.id = part.id;
  if (part.name) call.name += part.name;
  if (part.arguments) call.arguments += part.arguments;
}

export function addUsage(usage: Usage, reported: Usage): void {
  usage.promptTokens += reported.promptTokens;
  usage.completionTokens += reported.completionTokens;
  usage.totalTokens += reported.totalTokens;
}
