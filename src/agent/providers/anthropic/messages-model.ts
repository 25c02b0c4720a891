import Anthropic from "@anthropic-ai/sdk";
import { readServerSentEvents } from "../../../net/server-sent-events.js";
import type { Model, ModelErrorVerdict, ModelReply, ModelRequest, ModelStream, ModelToolCall, StreamSink, Usage } from "../../model.js";
import { streamedResponse } from "../streamed-response.js";
import { classifyAnthropicError } from "./errors.js";
import { messagesBody } from "./request.js";

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

/** A model behind Anthropic's Messages API: native tool use, images, streaming with tool-use deltas. */
export class AnthropicMessagesModel implements Model {
  constructor(
    private readonly client: Anthropic,
    private readonly name: string,
    private readonly maxTokens: number,
  ) {}

  async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const message = await this.client.messages.create(messagesBody(request, this.name, this.maxTokens), { signal });
    if (!Array.isArray(message.content)) throw new Error("the model's response had no content");
    let text: string | null = null;
    const toolCalls: ModelToolCall[] = [];
    for (const block of message.content) {
      if (block.type === "text") text = (text ?? "") + block.text;
      else if (block.type === "tool_use") toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    }
    const reply: ModelReply = { text, toolCalls };
    if (message.usage) reply.usage = usageOf(message.usage.input_tokens, message.usage, message.usage.output_tokens);
    return reply;
  }

  async stream(request: ModelRequest, signal: AbortSignal): Promise<ModelStream> {
    const body = { ...messagesBody(request, this.name, this.maxTokens), stream: true as const };
    return streamedResponse(signal, (call) => this.client.messages.create(body, { signal: call.signal }).asResponse(), readEvents);
  }

  classifyError(error: unknown): ModelErrorVerdict {
    return classifyAnthropicError(error);
  }
}

/**
 * The Messages API's server-sent events: content blocks by index, text in text_delta and a
 * tool call's input in input_json_delta fragments under its block's index (the block's start
 * carries its id and name); input tokens come with message_start, output tokens (so far) with
 * each message_delta. As the SDK reads them: `ping` and unnamed events are skipped, and an `error`
 * event mid-stream is the SDK's APIError.
 */
async function readEvents(body: AsyncIterable<Uint8Array>, response: Response, sink: StreamSink): Promise<void> {
  let input = 0;
  let cached: { cache_creation_input_tokens: number | null; cache_read_input_tokens: number | null } = {
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
  };
  let output = 0;
  let sawUsage = false;
  await readServerSentEvents(body, (name, data) => {
    if (name === undefined || name === "ping") return;
    if (name === "error") {
      const error = parsedOr(data) as { error?: { type?: Anthropic.ErrorType } };
      throw new Anthropic.APIError(undefined, error, undefined, response.headers, error?.error?.type);
    }
    if (!data) return;
    const event = JSON.parse(data) as StreamEvent;
    sink.received();
    switch (event.type) {
      case "message_start":
        sawUsage = true;
        input = event.message.usage.input_tokens;
        cached = event.message.usage;
        output = event.message.usage.output_tokens;
        break;
      case "content_block_start":
        if (event.content_block.type === "tool_use") sink.toolCall({ index: event.index, id: event.content_block.id, name: event.content_block.name });
        else if (event.content_block.type === "text" && event.content_block.text) sink.text(event.content_block.text);
        break;
      case "content_block_delta":
        if (event.delta.type === "text_delta") sink.text(event.delta.text);
        else if (event.delta.type === "input_json_delta") sink.toolCall({ index: event.index, arguments: event.delta.partial_json });
        break;
      case "message_delta":
        sawUsage = true;
        if (event.usage.input_tokens !== null && event.usage.input_tokens !== undefined) input = event.usage.input_tokens;
        output = event.usage.output_tokens;
        break;
    }
  });
  if (sawUsage) sink.usage(usageOf(input, cached, output));
}

/** An error event's data: its JSON, or the text itself when it is not JSON (as the SDK reports it). */
function parsedOr(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Input tokens include those read from or written to the prompt cache: they were all read. */
function usageOf(input: number, cached: { cache_creation_input_tokens: number | null; cache_read_input_tokens: number | null }, output: number): Usage {
  const prompt = input + (cached.cache_creation_input_tokens ?? 0) + (cached.cache_read_input_tokens ?? 0);
  return { promptTokens: prompt, completionTokens: output, totalTokens: prompt + output };
}
