import type OpenAI from "openai";
import { LlmError } from "./llm-error.js";
import { TurnCancelled } from "./tool-invoker.js";
import type { Usage } from "./types.js";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Message = OpenAI.Chat.Completions.ChatCompletionMessage;
type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;

/** A model that has sent nothing for this long has stalled: the openai client's timeout only covers the response's headers. */
export interface StreamLimits {
  idleTimeoutMs: number;
}

/** Far more parallel calls than any model makes (and MAX_TOOL_CALLS_PER_STEP runs only 8 of them). */
const MAX_CALL_INDEX = 128;

const STALLED = "The language model stopped sending its answer part-way through. Please try again in a moment.";
const INTERRUPTED = "The language model stopped answering part-way through. Please try again in a moment.";

/**
 * Reads a streamed chat completion into one message: text deltas go to `onText` as they arrive;
 * tool-call deltas are assembled by index into whole calls, so no tool runs on half its
 * arguments; usage comes with the last chunk. A stream that breaks or stalls part-way is an
 * LlmError ("interrupted", or "timeout"); a cancelled turn is TurnCancelled.
 */
export async function readStream(
  stream: AsyncIterable<Chunk> & { controller: AbortController },
  usage: Usage,
  onText: (text: string) => void,
  signal: AbortSignal,
  limits: StreamLimits,
): Promise<Message> {
  let content = "";
  let sawContent = false;
  const calls: { id: string; name: string; arguments: string }[] = [];
  let stalled = false;
  const idle = setTimeout(() => {
    stalled = true;
    stream.controller.abort();
  }, limits.idleTimeoutMs);
  try {
    for await (const chunk of stream) {
      idle.refresh();
      if (chunk.usage) addUsage(usage, chunk.usage);
      const delta = chunk.choices?.[0]?.delta;
      if (!delta) continue;
      if (delta.content) {
        sawContent = true;
        content += delta.content;
        onText(delta.content);
      }
      if (delta.tool_calls) for (const part of delta.tool_calls) mergeToolCall(calls, part);
    }
    // The client ends the iteration quietly when it is aborted: a cut-off stream is not an answer.
    if (signal.aborted || stalled) throw new Error("the stream was aborted");
  } catch (error) {
    if (signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
    if (stalled) throw new LlmError("timeout", STALLED, { cause: error });
    throw new LlmError("interrupted", INTERRUPTED, { cause: error });
  } finally {
    clearTimeout(idle);
  }
  const toolCalls = calls
    .filter((call) => call.name !== "")
    .map((call, index): ToolCall => ({ id: call.id || `call_${index}`, type: "function", function: { name: call.name, arguments: call.arguments } }));
  return {
    role: "assistant",
    content: sawContent ? content : null,
    refusal: null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

/** A tool call arrives in pieces: its id and name first, its arguments in fragments, all under one index. */
function mergeToolCall(
  calls: { id: string; name: string; arguments: string }[],
  part: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta.ToolCall,
): void {
  // A huge or missing index is a broken stream, not a reason to allocate a huge array.
  const index = Number.isInteger(part.index) && part.index >= 0 && part.index < MAX_CALL_INDEX ? part.index : calls.length;
  for (let i = calls.length; i <= index; i++) calls.push({ id: "", name: "", arguments: "" });
  const call = calls[index]!;
  if (part.id) call.id = part.id;
  if (part.function?.name) call.name += part.function.name;
  if (part.function?.arguments) call.arguments += part.function.arguments;
}

export function addUsage(usage: Usage, reported: OpenAI.CompletionUsage): void {
  usage.promptTokens += reported.prompt_tokens ?? 0;
  usage.completionTokens += reported.completion_tokens ?? 0;
  usage.totalTokens += reported.total_tokens ?? 0;
}
