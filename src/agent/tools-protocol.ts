import type { Logger } from "../log.js";
import type { Tool } from "../tools/define-tool.js";
import type { ModelMessage, ModelReply, ModelRequest, ModelToolCall } from "./model.js";
import type { ModelCaller } from "./model-caller.js";
import { LIMIT_REACHED_PROMPT } from "./prompts.js";
import type { Decision, ProtocolSession } from "./protocol.js";
import { readToolArguments } from "./tool-arguments.js";
import type { ToolCallRequest, ToolCallResult } from "./tool-invoker.js";

/** Native tool calling: the tools go with each request, and the model answers with calls its provider reads. */
export class ToolsProtocolSession implements ProtocolSession {
  private pendingCallIds: string[] = [];
  private readonly said: string[] = [];

  constructor(
    private readonly caller: ModelCaller,
    private readonly messages: ModelMessage[],
    /** A registered Tool is a ToolSpec: the channel's list goes as it is (its providers cache their definitions by it). */
    private readonly tools: readonly Tool[],
    private readonly logger: Logger,
    /** Set when the answer is shown while it arrives: model calls stream, their text goes here. */
    private readonly onText?: (text: string) => void,
  ) {}

  async decide(signal: AbortSignal): Promise<Decision> {
    const reply = await this.call({ messages: this.messages, tools: this.tools }, signal);
    const toolCalls = reply.toolCalls;
    if (toolCalls.length === 0) return { kind: "final", text: reply.text ?? "" };

    if (reply.text?.trim()) this.said.push(reply.text.trim());
    this.messages.push({ role: "assistant", content: reply.text, toolCalls });
    this.pendingCallIds = toolCalls.map((call) => call.id);
    return { kind: "calls", calls: toolCalls.map((call) => readCall(call, this.logger)) };
  }

  recordResults(results: ToolCallResult[]): void {
    results.forEach((result, index) => {
      this.messages.push({ role: "tool", toolCallId: this.pendingCallIds[index]!, content: result.observation });
    });
    this.pendingCallIds = [];
  }

  recordInvalid(observation: string): void {
    this.messages.push({ role: "user", content: observation });
  }

  async finalAttempt(signal: AbortSignal): Promise<string | undefined> {
    this.messages.push({ role: "user", content: LIMIT_REACHED_PROMPT });
    const reply = await this.call({ messages: this.messages, tools: this.tools, toolChoice: "none" }, signal);
    return reply.text ?? undefined;
  }

  answerSoFar(): string {
    return this.said.join("\n\n");
  }

  private call(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    return this.onText ? this.caller.stream(request, signal, this.onText) : this.caller.complete(request, signal);
  }
}

/** A native call's arguments, repaired when unambiguous; otherwise the model is told precisely what is wrong. */
function readCall(call: ModelToolCall, logger: Logger): ToolCallRequest {
  const read = readToolArguments(call.arguments);
  if (!read.ok) return { tool: call.name, args: call.arguments, argsError: read.problem };
  if (read.repairs.length > 0) logger.debug({ tool: call.name, repairs: read.repairs }, "repaired tool arguments");
  return { tool: call.name, args: read.args };
}
