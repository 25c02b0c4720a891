import type Anthropic from "@anthropic-ai/sdk";
import type { ModelMessage, ModelRequest, ToolSpec, UserContentPart } from "../../model.js";

type MessageParam = Anthropic.Messages.MessageParam;
type ContentBlock = Anthropic.Messages.ContentBlockParam;
type ToolDefinition = Anthropic.Messages.Tool;
export type MessagesBody = Anthropic.Messages.MessageCreateParamsNonStreaming;
type ImageMediaType = Anthropic.Messages.Base64ImageSource["media_type"];

/*
 * The project's request as the Messages API wants it: the system prompt apart; tool calls as
 * tool_use blocks of the assistant's message and their results as tool_result blocks of the
 * next user message (all results of one step in one message, as the API requires); user turns
 * that follow each other (results, then a correction) merged into one.
 */

const definitionLists = new WeakMap<readonly ToolSpec[], ToolDefinition[]>();

export function messagesBody(request: ModelRequest, model: string, maxTokens: number): MessagesBody {
  const system: string[] = [];
  const messages: MessageParam[] = [];
  for (const message of request.messages) {
    if (message.role === "system") system.push(message.content);
    else append(messages, message.role === "assistant" ? "assistant" : "user", blocksOf(message));
  }
  const body: MessagesBody = { model, max_tokens: Math.min(maxTokens, request.maxTokens ?? maxTokens), messages };
  if (system.length > 0) body.system = system.join("\n\n");
  if (request.tools && request.tools.length > 0) {
    body.tools = toolDefinitions(request.tools);
    if (request.toolChoice === "none") body.tool_choice = { type: "none" };
  }
  if (request.stop) body.stop_sequences = [...request.stop];
  return body;
}

function append(messages: MessageParam[], role: "user" | "assistant", blocks: ContentBlock[]): void {
  const last = messages.at(-1);
  if (last && last.role === role) (last.content as ContentBlock[]).push(...blocks);
  else messages.push({ role, content: blocks });
}

function blocksOf(message: Exclude<ModelMessage, { role: "system" }>): ContentBlock[] {
  switch (message.role) {
    case "user":
      return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content.map(contentBlock);
    case "assistant": {
      const blocks: ContentBlock[] = message.content ? [{ type: "text", text: message.content }] : [];
      for (const call of message.toolCalls ?? []) blocks.push({ type: "tool_use", id: call.id, name: call.name, input: inputOf(call.arguments) });
      // The API refuses an empty assistant message; an empty answer was still an answer.
      return blocks.length > 0 ? blocks : [{ type: "text", text: "(no answer)" }];
    }
    case "tool":
      return [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content }];
  }
}

function contentBlock(part: UserContentPart): ContentBlock {
  if (part.type === "text") return { type: "text", text: part.text };
  return { type: "image", source: { type: "base64", media_type: part.mediaType as ImageMediaType, data: part.base64 } };
}

/**
 * A call's input goes back as the object the model sent. Arguments that were not a JSON object
 * (the invoker told the model so, in the call's result) go back empty: the API takes nothing else.
 */
function inputOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Built once per list of tools (a channel's stays the same object while its settings do). */
function toolDefinitions(tools: readonly ToolSpec[]): ToolDefinition[] {
  let list = definitionLists.get(tools);
  if (!list) {
    list = tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.jsonSchema as ToolDefinition["input_schema"] }));
    definitionLists.set(tools, list);
  }
  return list;
}
