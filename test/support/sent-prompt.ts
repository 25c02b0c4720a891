import type { ModelMessage, ModelRequest } from "../../src/agent/model.js";
import { promptTokens } from "../../src/agent/prompt-tokens.js";

/** The prompt tokens of a Chat Completions body as the fake received it, counted as the bot counts them before a call. */
export function sentPromptTokens(body: any): number {
  const messages: ModelMessage[] = body.messages.map((message: any): ModelMessage => {
    if (message.role === "assistant") {
      const toolCalls = message.tool_calls?.map((call: any) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }));
      return toolCalls ? { role: "assistant", content: message.content, toolCalls } : { role: "assistant", content: message.content };
    }
    if (message.role === "tool") return { role: "tool", toolCallId: message.tool_call_id, content: message.content };
    return { role: message.role, content: message.content };
  });
  const request: ModelRequest = {
    messages,
    tools: body.tools?.map((tool: any) => ({ name: tool.function.name, description: tool.function.description, jsonSchema: tool.function.parameters })),
  };
  return promptTokens(request, body.model);
}
