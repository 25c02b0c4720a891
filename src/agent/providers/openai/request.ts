import type OpenAI from "openai";
import type { ModelMessage, ModelRequest, ModelToolCall, ToolSpec, UserContentPart } from "../../model.js";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type FunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
export type CompletionBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/*
 * The project's request as Chat Completions wants it. The bench checks that the bytes are those a
 * hand-written openai loop sends, so keys keep that order (messages, tools, tool_choice, stop,
 * model, stream), and a system, plain user or plain assistant message, which has the API's own
 * shape already, is sent as the same object rather than a copy.
 */

/** Tool definitions are built once per tool, and their list once per list of tools (a channel's stays the same object while its settings do). */
const definitions = new WeakMap<ToolSpec, FunctionTool>();
const definitionLists = new WeakMap<readonly ToolSpec[], FunctionTool[]>();
/** A question with images is sent on every call of its turn: its parts (with the data URLs) are built once. */
const withImages = new WeakMap<ModelMessage, ChatMessage>();

export function completionBody(request: ModelRequest, model: string): CompletionBody {
  const body = { messages: chatMessages(request.messages) } as CompletionBody;
  if (request.tools && request.tools.length > 0) {
    body.tools = toolDefinitions(request.tools);
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  if (request.stop) body.stop = request.stop as string[];
  // max_tokens rather than max_completion_tokens: every OpenAI-compatible server reads it.
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  body.model = model;
  return body;
}

function chatMessages(messages: readonly ModelMessage[]): ChatMessage[] {
  const mapped: ChatMessage[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) mapped[i] = chatMessage(messages[i]!);
  return mapped;
}

function chatMessage(message: ModelMessage): ChatMessage {
  switch (message.role) {
    case "system":
      return message;
    case "user": {
      if (typeof message.content === "string") return message as ChatMessage;
      let mapped = withImages.get(message);
      if (!mapped) {
        mapped = { role: "user", content: message.content.map(contentPart) };
        withImages.set(message, mapped);
      }
      return mapped;
    }
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
  let list = definitionLists.get(tools);
  if (!list) {
    list = tools.map(toolDefinition);
    definitionLists.set(tools, list);
  }
  return list;
}

function toolDefinition(tool: ToolSpec): FunctionTool {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema } };
    definitions.set(tool, definition);
  }
  return definition;
}
