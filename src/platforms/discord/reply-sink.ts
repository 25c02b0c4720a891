import type { Logger } from "../../log.js";
import type { ReplySink, StepEvent, TurnReply } from "../../runner/types.js";
import { splitMessage } from "../shared/split-message.js";
import { describeDiscordError } from "./errors.js";
import { formatStepEnded, formatStepStarted } from "./step-format.js";

/** Discord's limit on a message's content. */
export const DISCORD_MESSAGE_LIMIT = 2_000;

export interface PostedStep {
  edit(content: string): Promise<unknown>;
}

/** Where a turn's tool steps go (a thread, the channel, interaction follow-ups). Resolved on the first step. */
export interface StepPlace {
  post(content: string): Promise<PostedStep>;
}

/** Where the answer goes: the first part (a reply, or the deferred interaction reply), then the rest. */
export interface AnswerPlace {
  first(content: string): Promise<unknown>;
  more(content: string): Promise<unknown>;
}

export interface DiscordReplySinkOptions {
  /** See ReplySink.stepStartDelayMs (STEP_START_DELAY_MS). */
  stepStartDelayMs: number;
  /** Called once, on the first tool step: a turn that uses no tool never opens a thread. */
  openStepPlace(): Promise<StepPlace>;
  answer: AnswerPlace;
  logger: Logger;
  /** Runs before the answer is posted (e.g. to give the new thread the question's context). */
  beforeAnswer?(reply: TurnReply): void;
}

const EMPTY_ANSWER = "_(The model gave an empty answer. Please try asking differently.)_";

/**
 * Shows a turn on Discord: each tool step as a message that is edited in place when the tool
 * ends, then the answer split at 2,000 characters. Never throws: a failed post is logged
 * (without URLs, which can hold interaction tokens) and the turn goes on.
 */
export class DiscordReplySink implements ReplySink {
  private stepPlace?: Promise<StepPlace>;
  private readonly posted = new Map<number, PostedStep>();
  readonly stepStartDelayMs: number;

  constructor(private readonly options: DiscordReplySinkOptions) {
    this.stepStartDelayMs = options.stepStartDelayMs;
  }

  async step(event: StepEvent): Promise<void> {
    try {
      this.stepPlace ??= this.options.openStepPlace();
      const place = await this.stepPlace;
      if (event.type === "tool_started") {
        this.posted.set(event.seq, await place.post(formatStepStarted(event)));
        return;
      }
      const content = formatStepEnded(event);
      const started = this.posted.get(event.seq);
      if (started) await started.edit(content);
      else await place.post(content);
    } catch (error) {
      this.options.logger.warn({ err: describeDiscordError(error), step: event.seq, tool: event.tool }, "could not show a tool step on Discord");
    }
  }

  async reply(reply: TurnReply): Promise<void> {
    try {
      this.options.beforeAnswer?.(reply);
    } catch (error) {
      this.options.logger.error({ err: error, turnId: reply.turnId }, "could not prepare the answer");
    }
    const text = reply.text.trim() === "" ? EMPTY_ANSWER : reply.text;
    const [first, ...rest] = splitMessage(text, DISCORD_MESSAGE_LIMIT);
    try {
      await this.options.answer.first(first!);
      for (const part of rest) await this.options.answer.more(part);
    } catch (error) {
      this.options.logger.warn({ err: describeDiscordError(error), turnId: reply.turnId }, "could not post the answer on Discord");
    }
  }
}
