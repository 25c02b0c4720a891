import OpenAI from "openai";
import { readServerSentEvents } from "../../../net/server-sent-events.js";
import type { Model, ModelErrorVerdict, ModelReply, ModelRequest, ModelStream, ModelToolCall, StreamSink, Usage } from "../../model.js";
import { callAbort } from "../call-abort.js";
import { streamedResponse } from "../streamed-response.js";
import type { CompletionsEndpoint } from "./completions-endpoint.js";
import { classifyOpenAIError } from "./errors.js";
import { completionJson } from "./request.js";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;

const NO_CALLS: ModelToolCall[] = [];

/**
 * A model behind OpenAI's Chat Completions API, or any server that speaks it (Ollama, vLLM,
 * llama.cpp, LM Studio). Its requests' bodies are the bytes of the JSON completionJson makes from
 * kept pieces (the conversation and the tool definitions are not serialized again for every call
 * of a turn), sent by the CompletionsEndpoint; a stream's events are read by readServerSentEvents.
 */
export class OpenAIChatModel implements Model {
  constructor(
    private readonly endpoint: CompletionsEndpoint,
    private readonly name: string,
  ) {}

  async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const call = callAbort(signal);
    let response: ChatCompletion;
    try {
      response = (await (await this.endpoint.post(Buffer.from(completionJson(request, this.name, false)), call.controller)).json()) as ChatCompletion;
    } finally {
      call.release();
    }
    const message = response.choices?.[0]?.message;
    if (!message) throw new Error("the model's response had no choices");
    const calls = message.tool_calls;
    const reply: ModelReply = { text: message.content ?? null, toolCalls: calls && calls.length > 0 ? toolCallsOf(calls) : NO_CALLS };
    if (response.usage) reply.usage = usageOf(response.usage);
    return reply;
  }

  async stream(request: ModelRequest, signal: AbortSignal): Promise<ModelStream> {
    const body = Buffer.from(completionJson(request, this.name, true));
    return streamedResponse(signal, (call) => this.endpoint.post(body, call), readChunks);
  }

  classifyError(error: unknown): ModelErrorVerdict {
    return classifyOpenAIError(error);
  }
}

/**
 * Text and tool-call deltas as they come; usage with the last chunk (include_usage). As the SDK
 * reads a stream: events after `[DONE]` are ignored, and an error the server reports mid-stream
 * (an `error` event, or a chunk with an `error` field) is the SDK's APIError.
 */
async function readChunks(body: AsyncIterable<Uint8Array>, response: Response, sink: StreamSink): Promise<void> {
  let done = false;
  await readServerSentEvents(body, (event, data) => {
    if (done) return;
    if (data.startsWith("[DONE]")) {
      done = true;
      return;
    }
    const chunk = JSON.parse(data) as (Chunk & { error?: object }) | null;
    if (event === "error" || chunk?.error) throw new OpenAI.APIError(undefined, chunk?.error ?? chunk ?? undefined, undefined, response.headers);
    sink.received();
    if (typeof chunk !== "object" || chunk === null) return;
    if (chunk.usage) sink.usage(usageOf(chunk.usage));
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return;
    if (delta.content) sink.text(delta.content);
    if (delta.tool_calls) {
      for (const part of delta.tool_calls) sink.toolCall({ index: part.index, id: part.id, name: part.function?.name, arguments: part.function?.arguments });
    }
  });
}

function toolCallsOf(calls: OpenAI.Chat.Completions.ChatCompletionMessageToolCall[]): ModelToolCall[] {
  const read: ModelToolCall[] = [];
  for (const call of calls) if (call.type === "function") read.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
  return read;
}

function usageOf(reported: OpenAI.CompletionUsage): Usage {
  return { promptTokens: reported.prompt_tokens ?? 0, completionTokens: reported.completion_tokens ?? 0, totalTokens: reported.total_tokens ?? 0 };
}
