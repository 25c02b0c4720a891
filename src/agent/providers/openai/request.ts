import type OpenAI from "openai";
import type { ModelMessage, ModelRequest, ModelToolCall, ToolSpec, UserContentPart } from "../../model.js";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type FunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

/*
 * The project's request as Chat Completions wants it. The bench checks that the bytes are those a
 * hand-written openai loop sends, so keys keep that order (messages, tools, tool_choice, stop,
 * max_tokens, model, stream), and a system, plain user or plain assistant message, which has the
 * API's own shape already, is serialized as it is rather than copied first.
 */

/** The JSON text of each message as sent; a message is not changed once made (a session only appends), so its text is kept. */
const messageJson = new WeakMap<ModelMessage, string>();
/** The JSON text of a list of tool definitions (a channel's list stays the same object while its settings do). */
const toolListJson = new WeakMap<readonly ToolSpec[], string>();

/** What follows the model in the body: a whole answer, or a stream with its usage in the last chunk. */
const STREAMED = `,"stream":true,"stream_options":{"include_usage":true}}`;
const WHOLE = `,"stream":false}`;

/**
 * The request's body as JSON text: the same bytes as JSON.stringify of the Chat Completions
 * request (messages, tools, tool_choice, stop, max_tokens, model, stream, and stream_options when
 * streamed), as chat.completions.create would send it, made from the JSON of each message and of
 * the tool list, which are kept. A turn's calls resend the same
 * system prompt, history and tool definitions with a few messages more each time: only those
 * are serialized again (the tool list of a channel not at all).
 */
export function completionJson(request: ModelRequest, model: string, stream: boolean): string {
  const { messages } = request;
  let json = `{"messages":[`;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    let text = messageJson.get(message);
    if (text === undefined) {
      text = JSON.stringify(chatMessage(message));
      messageJson.set(message, text);
    }
    json += i === 0 ? text : `,${text}`;
  }
  json += "]";
  if (request.tools && request.tools.length > 0) {
    let tools = toolListJson.get(request.tools);
    if (tools === undefined) {
      tools = JSON.stringify(toolDefinitions(request.tools));
      toolListJson.set(request.tools, tools);
    }
    json += `,"tools":${tools}`;
    if (request.toolChoice) json += `,"tool_choice":${JSON.stringify(request.toolChoice)}`;
  }
  if (request.stop) json += `,"stop":${JSON.stringify(request.stop)}`;
  // max_tokens rather than max_completion_tokens: every OpenAI-compatible server reads it.
  if (request.maxTokens !== undefined) json += `,"max_tokens":${JSON.stringify(request.maxTokens)}`;
  return `${json},"model":${JSON.stringify(model)}${stream ? STREAMED : WHOLE}`;
}

function chatMessage(message: ModelMessage): ChatMessage {
  switch (message.role) {
    case "system":
      return message;
    case "user":
      return typeof message.content === "string" ? (message as ChatMessage) : { role: "user", content: message.content.map(contentPart) };
    case "assistant":
      return message.toolCalls ? { role: "assistant", content: message.content, tool_calls: message.toolCalls.map(toolCall) } : (message as ChatMessage);
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Images as data URLs: the provider gets the bytes, never a platform's address. */
function contentPart(part: UserContentPart): ContentPart {
  return part.type === "text" ? part : { type: "image_url", image_url: { url: `data:${part.mediaType};base64,${part.base64}` } };
}

function toolCall(call: ModelToolCall): OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall {
  return { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } };
}

function toolDefinitions(tools: readonly ToolSpec[]): FunctionTool[] {
  return tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema } }));
}
