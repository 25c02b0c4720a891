import type { Logger } from "../log.js";
import type { ModelMessage } from "./model.js";
import type { ModelCaller } from "./model-caller.js";
import { LIMIT_REACHED_PROMPT, reactFormatError, reactObservation } from "./prompts.js";
import type { Decision, ProtocolSession } from "./protocol.js";
import { ReactAnswerStream } from "./react-answer-stream.js";
import { type OutputParseError, parseAgentOutput } from "./react-parser.js";
import type { ToolShape } from "./react-tools.js";
import type { ToolCallResult } from "./tool-invoker.js";
import { hasCode } from "../errors.js";

/** Stops the model from writing the observation itself. */
const STOP = ["\nObservation:"];

/** The text protocol for models without tool calling: JSON-blob actions, observations as messages. */
export class ReactProtocolSession implements ProtocolSession {
  constructor(
    private readonly caller: ModelCaller,
    private readonly messages: ModelMessage[],
    /** The tools offered: the parser reads a name or an input as the tool it is meant for. */
    private readonly tools: readonly ToolShape[],
    private readonly logger: Logger,
    /** Set when the answer is shown while it arrives: only a final answer's text reaches it (see ReactAnswerStream). */
    private readonly onText?: (text: string) => void,
  ) {}

  /** A reply that cannot be read goes back to the model with what was wrong; the user never sees it. */
  async decide(signal: AbortSignal): Promise<Decision> {
    const text = await this.ask(signal);
    try {
      const parsed = parseAgentOutput(text, this.tools);
      if (parsed.kind === "final") return { kind: "final", text: parsed.output };
      return { kind: "calls", calls: [{ tool: parsed.tool, args: parsed.input }] };
    } catch (error) {
      if (!hasCode<OutputParseError>(error, "model_output_unreadable")) throw error;
      this.logger.debug({ problem: error.message }, "text-protocol reply could not be read; sent back to the model");
      return { kind: "invalid", observation: reactFormatError(error.message, error.expected) };
    }
  }

  recordResults(results: ToolCallResult[]): void {
    for (const result of results) this.messages.push({ role: "user", content: reactObservation(result.observation) });
  }

  recordInvalid(observation: string): void {
    this.messages.push({ role: "user", content: observation });
  }

  async finalAttempt(signal: AbortSignal): Promise<string | undefined> {
    this.messages.push({
      role: "user",
      content: `${LIMIT_REACHED_PROMPT}\nReply with the Final Answer JSON blob.`,
    });
    const text = await this.ask(signal);
    try {
      const parsed = parseAgentOutput(text);
      return parsed.kind === "final" ? parsed.output : undefined;
    } catch {
      return undefined;
    }
  }

  /** The text protocol's replies before the final answer are thoughts and actions, not words for the user. */
  answerSoFar(): string {
    return "";
  }

  private async ask(signal: AbortSignal): Promise<string> {
    const params = { messages: this.messages, stop: STOP };
    let reply;
    if (this.onText) {
      const answer = new ReactAnswerStream(this.onText);
      reply = await this.caller.stream(params, signal, (delta) => answer.push(delta));
    } else {
      reply = await this.caller.complete(params, signal);
    }
    const text = reply.text ?? "";
    this.messages.push({ role: "assistant", content: text });
    return text;
  }
}
