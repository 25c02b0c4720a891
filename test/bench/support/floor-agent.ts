import OpenAI from "openai";
import { systemPrompt } from "../../../src/agent/prompts.js";
import type { Config } from "../../../src/config/env.js";
import type { Tool } from "../../../src/tools/define-tool.js";
import { formatNumber } from "../../../src/tools/builtin/format-number.js";
import { loadedBot } from "./built-bot.js";
import { ANSWER } from "./turn-script.js";

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/**
 * The floor: the least code that makes the same three requests per turn with the `openai`
 * client — same system prompt, tool definitions, history length and tool outputs as the real
 * turn, so the request bodies are the same bytes (the benchmark checks: same-bodies.ts) — but no runner, store, validation, audit or logging.
 */
export class FloorAgent {
  private readonly client: OpenAI;
  private readonly tools: OpenAI.Chat.Completions.ChatCompletionFunctionTool[];
  private readonly system = systemPrompt();
  private readonly histories = new Map<string, Message[]>();

  constructor(
    baseURL: string,
    tools: Tool[],
    private readonly config: Pick<Config, "OPENAI_MODEL" | "OPENAI_TIMEOUT_MS" | "MEMORY_WINDOW">,
    client: "bot" | "sdk-default" = "bot",
    /** Streams every call (stream_options.include_usage, tool calls assembled from their deltas), as a bare streaming loop does. */
    private readonly streamed = false,
  ) {
    this.client =
      client === "bot" ? loadedBot().createOpenAIClient({ baseURL, timeoutMs: config.OPENAI_TIMEOUT_MS }) : new OpenAI({ apiKey: "not-needed", baseURL });
    this.tools = tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema },
    }));
  }

  async turn(conversation: string, question: string): Promise<void> {
    const history = this.histories.get(conversation) ?? [];
    const messages: Message[] = [{ role: "system", content: this.system }, ...history, { role: "user", content: question }];
    for (;;) {
      // the bot's key order (src/agent/providers/openai/request.ts), so the bodies are the same bytes
      const message = this.streamed ? await this.streamedMessage(messages) : await this.wholeMessage(messages);
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        if (message.content !== ANSWER) throw new Error(`the floor got an unexpected answer: ${message.content}`);
        history.push({ role: "user", content: question }, { role: "assistant", content: message.content });
        this.histories.set(conversation, history.slice(-2 * this.config.MEMORY_WINDOW));
        return;
      }
      messages.push({ role: "assistant", content: message.content, tool_calls: calls });
      for (const call of calls) {
        if (call.type !== "function") continue;
        messages.push({ role: "tool", tool_call_id: call.id, content: runTool(call.function.name, JSON.parse(call.function.arguments)) });
      }
    }
  }
  private async wholeMessage(messages: Message[]): Promise<OpenAI.Chat.Completions.ChatCompletionMessage> {
    const response = await this.client.chat.completions.create({ messages, tools: this.tools, model: this.config.OPENAI_MODEL, stream: false });
    return response.choices[0]!.message;
  }

  /** The streamed message put together: its text, and its tool calls from their deltas (by index). */
  private async streamedMessage(messages: Message[]): Promise<OpenAI.Chat.Completions.ChatCompletionMessage> {
    const stream = await this.client.chat.completions.create({
      messages,
      tools: this.tools,
      model: this.config.OPENAI_MODEL,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = "";
    const calls: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      usage ??= chunk.usage ?? undefined;
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) content += delta.content;
      for (const part of delta.tool_calls ?? []) {
        const call = (calls[part.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        if (part.id) call.id = part.id;
        if (part.function?.name) call.function.name += part.function.name;
        if (part.function?.arguments) call.function.arguments += part.function.arguments;
      }
    }
    if (!usage) throw new Error("the streaming floor's stream ended without usage");
    return { role: "assistant", content: calls.length > 0 ? null : content, refusal: null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  }
}

function runTool(name: string, args: Record<string, number>): string {
  if (name === "circumference") return formatNumber(2 * Math.PI * args.radius!);
  if (name === "hypotenuse") return formatNumber(Math.hypot(args.adjacent_side!, args.opposite_side!));
  throw new Error(`the floor has no tool ${name}`);
}
