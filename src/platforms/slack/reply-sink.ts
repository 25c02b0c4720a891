import type { Logger } from "../../log.js";
import type { ReplySink, StepEvent, TurnReply } from "../../runner/types.js";
import { splitMessage } from "../shared/split-message.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackApi } from "./slack-api.js";
import { formatEnded, formatStarted } from "./step-format.js";

/** Under Slack's 4,000-character guidance for one message's text, with room to spare. */
export const SLACK_MESSAGE_LIMIT = 3_800;
export const THINKING_REACTION = "hourglass_flowing_sand";

/** Errors after which nothing more can be posted in this channel, so the sink stops trying. */
const CHANNEL_UNUSABLE = new Set([
  "not_in_channel",
  "channel_not_found",
  "is_archived",
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "account_inactive",
  "missing_scope",
]);

export interface SlackReplyTarget {
  channel: string;
  /** Where steps go, and the answer unless `answerInThread` is false. */
  threadTs: string;
  answerInThread: boolean;
  /** Also show the answer in the channel (reply_broadcast). */
  broadcast: boolean;
  /** The message that gets the thinking reaction while the turn runs. */
  reactTo?: string;
  /** See ReplySink.stepStartDelayMs (STEP_START_DELAY_MS). */
  stepStartDelayMs: number;
}

/** Shows one turn in Slack: a reaction while it runs, each tool step as a thread reply, then the answer. */
export class SlackReplySink implements ReplySink {
  /** The message each started step was posted as, to update when it ends. */
  private readonly started = new Map<number, string | undefined>();
  private unusable = false;

  readonly stepStartDelayMs: number;

  constructor(
    private readonly api: SlackApi,
    private readonly target: SlackReplyTarget,
    private readonly logger: Logger,
  ) {
    this.stepStartDelayMs = target.stepStartDelayMs;
  }

  /** The thinking indicator: called when the turn is queued. */
  async begin(): Promise<void> {
    if (this.target.reactTo) await this.api.addReaction(this.target.channel, this.target.reactTo, THINKING_REACTION);
  }

  async step(event: StepEvent): Promise<void> {
    if (event.type === "tool_started") {
      this.started.set(event.seq, await this.post(formatStarted(event), this.target.threadTs));
      return;
    }
    const ts = this.started.get(event.seq);
    const text = formatEnded(event);
    if (ts) {
      const updated = await this.api.updateMessage(this.target.channel, ts, text);
      if (updated.ok) return;
    }
    await this.post(text, this.target.threadTs);
  }

  /** For a turn refused silently (an ignored user): no reply, just take the thinking reaction back. */
  async end(): Promise<void> {
    if (this.target.reactTo && !this.unusable) {
      await this.api.removeReaction(this.target.channel, this.target.reactTo, THINKING_REACTION);
    }
  }

  async reply(reply: TurnReply): Promise<void> {
    try {
      const body = reply.text.trim() === "" ? "_(The model gave an empty answer.)_" : markdownToMrkdwn(reply.text);
      const text = reply.status === "failed" ? `:warning: ${body}` : body;
      const threadTs = this.target.answerInThread ? this.target.threadTs : undefined;
      const broadcast = reply.status === "answered" && this.target.broadcast;
      for (const chunk of splitMessage(text, SLACK_MESSAGE_LIMIT)) {
        await this.post(chunk, threadTs, broadcast);
        if (this.unusable) break;
      }
    } finally {
      await this.end();
    }
  }

  private async post(text: string, threadTs: string | undefined, broadcast = false): Promise<string | undefined> {
    if (this.unusable) return undefined;
    const result = await this.api.postMessage({ channel: this.target.channel, text, threadTs, broadcast });
    if (result.ok) return result.value.ts;
    if (CHANNEL_UNUSABLE.has(result.error)) {
      this.unusable = true;
      this.logger.warn({ channel: this.target.channel, error: result.error }, "stopped posting this turn in Slack: the channel cannot be used");
    }
    return undefined;
  }
}
