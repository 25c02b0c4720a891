import type OpenAI from "openai";
import type { Logger } from "../log.js";
import type { Tool } from "../tools/define-tool.js";
import type { ModelCaller } from "./model-caller.js";
import { LIMIT_REACHED_PROMPT } from "./prompts.js";
import type { Decision, ProtocolSession } from "./protocol.js";
import { readToolArguments } from "./tool-arguments.js";
import type { ToolCallRequest, ToolCallResult } from "./tool-invoker.js";
import type { ChatMessage } from "./types.js";

type FunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/** Tool definitions are built once per tool, and their list once per list of tools (a channel's stays the same object while its settings do). */
const definitions = new WeakMap<Tool, FunctionTool>();
const definitionLists = new WeakMap<readonly Tool[], FunctionTool[]>();

function toolDefinitions(tools: readonly Tool[]): FunctionTool[] {
  let list = definitionLists.get(tools);
  if (!list) {
    list = tools.map(toolDefinition);
    definitionLists.set(tools, list);
  }
  return list;
}

function toolDefinition(tool: Tool): FunctionTool {
  let definition = definitions.get(tool);
  if (!definition) {
    definition = {
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema },
    };
    definitions.set(tool, definition);
  }
  return definition;
}

/** Native OpenAI tool calling. */
export class ToolsProtocolSession implements ProtocolSession {
  private readonly definitions: FunctionTool[];
  private pendingCallIds: string[] = [];

  constructor(
    private readonly caller: ModelCaller,
    private readonly messages: ChatMessage[],
    tools: Tool[],
    private readonly logger: Logger,
    /** Set when the answer is shown while it arrives: model calls stream, their text goes here. */
    private readonly onText?: (text: string) => void,
  ) {
    this.definitions = toolDefinitions(tools);
  }

  async decide(signal: AbortSignal): Promise<Decision> {
    const message = await this.call({ messages: this.messages, ...(this.definitions.length > 0 ? { tools: this.definitions } : {}) }, signal);
    const toolCalls = (message.tool_calls ?? []).filter((call) => call.type === "function");
    if (toolCalls.length === 0) return { kind: "final", text: message.content ?? "" };

    this.messages.push({ role: "assistant", content: message.content ?? null, tool_calls: toolCalls });
    this.pendingCallIds = toolCalls.map((call) => call.id);
    return { kind: "calls", calls: toolCalls.map((call) => readCall(call.function, this.logger)) };
  }

  recordResults(results: ToolCallResult[]): void {
    results.forEach((result, index) => {
      this.messages.push({ role: "tool", tool_call_id: this.pendingCallIds[index]!, content: result.observation });
    });
    this.pendingCallIds = [];
  }

  recordInvalid(observation: string): void {
    this.messages.push({ role: "user", content: observation });
  }

  async finalAttempt(signal: AbortSignal): Promise<string | undefined> {
    this.messages.push({ role: "user", content: LIMIT_REACHED_PROMPT });
    const message = await this.call(
      {
        messages: this.messages,
        ...(this.definitions.length > 0 ? { tools: this.definitions, tool_choice: "none" as const } : {}),
      },
      signal,
    );
    return message.content ?? undefined;
  }

  private call(params: Parameters<ModelCaller["complete"]>[0], signal: AbortSignal) {
    return this.onText ? this.caller.stream(params, signal, this.onText) : this.caller.complete(params, signal);
  }
}

/** A native call's arguments, repaired when unambiguous; otherwise the model is told precisely what is wrong. */
function readCall(fn: { name: string; arguments: string }, logger: Logger): ToolCallRequest {
  const read = readToolArguments(fn.arguments);
  if (!read.ok) return { tool: fn.name, args: fn.arguments, argsError: read.problem };
  if (read.repairs.length > 0) logger.debug({ tool: fn.name, repairs: read.repairs }, "repaired tool arguments");
  return { tool: fn.name, args: read.args };
}
