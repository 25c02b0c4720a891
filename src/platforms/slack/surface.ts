import {
  RateLimitedError,
  type ApprovalControls,
  type ChatSurface,
  type Destination,
  type MessageRef,
  type NativeStream,
  type PostedMessage,
  type PostOptions,
} from "../../contract/surface.js";
import type { Location } from "../../contract/inbound.js";
import { approvalBlocks, settledBlocks } from "./approval-blocks.js";
import { answerBlocks } from "./feedback-blocks.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackApi, SlackResult } from "./slack-api.js";
import { SlackStream } from "./slack-stream.js";

/** Under Slack's 4,000-character guidance for one message's text, with room to spare. */
const SLACK_MESSAGE_LIMIT = 3_800;
const THINKING_REACTION = "hourglass_flowing_sand";
const THINKING_STATUS = "is thinking…";

/** Errors after which nothing more can be posted in a channel for a while, so the surface stops trying. */
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
const UNUSABLE_FOR_MS = 60_000;

interface SlackPosted extends PostedMessage {
  channel: string;
}

/**
 * Slack as the presenter sees it: messages go into threads (a thread is a reply's `thread_ts`),
 * answers follow the steps into the question's thread, and everything is converted to mrkdwn with
 * broadcasts and user groups defused. Answers in threads stream natively (chat.startStream),
 * unless Slack refuses. The working indicator is the thread's status in direct messages where
 * the app has Slack's assistant feature, else a ⏳ reaction.
 */
export class SlackSurface implements ChatSurface {
  readonly platform = "slack";
  readonly messageLimit = SLACK_MESSAGE_LIMIT;
  readonly answerInThread = true;
  readonly holdsQuickSteps = true;
  readonly offersFeedback = true;
  private readonly unusable = new Map<string, number>();
  /** Cleared when Slack refuses the thread status (no assistant feature): DMs get the reaction too. */
  private statusWorks = true;
  /** Cleared when Slack refuses native streaming for good (a missing scope, an older workspace). */
  private streamingWorks = true;

  /** A request for approval: its text in a section, then Approve and Deny buttons (Block Kit). */
  readonly approvals: ApprovalControls = {
    post: async (to, text, approvalId) => {
      const channel = to.location.channelId;
      this.checkUsable(channel);
      const posted = this.expect(
        channel,
        await this.api.postMessage({ channel, text, threadTs: to.location.threadId, blocks: approvalBlocks(text, approvalId) }),
        true,
      );
      return { id: posted.ts, channel } satisfies SlackPosted;
    },
    settle: async (message, text) => {
      const { channel, id } = message as SlackPosted;
      this.expect(channel, await this.api.updateMessage(channel, id, text, { blocks: settledBlocks(text) }));
    },
  };

  constructor(
    private readonly api: SlackApi,
    private readonly options: { broadcastAnswers: boolean },
  ) {}

  render(markdown: string): string {
    return markdownToMrkdwn(markdown);
  }

  async post(to: Destination, text: string, options: PostOptions): Promise<SlackPosted> {
    const channel = to.location.channelId;
    this.checkUsable(channel);
    const broadcast = options.kind === "answer" && options.notify !== undefined && this.options.broadcastAnswers;
    const blocks = options.feedback !== undefined ? answerBlocks(text, options.feedback) : undefined;
    const posted = this.expect(channel, await this.api.postMessage({ channel, text, threadTs: to.location.threadId, broadcast, blocks }), true);
    return { id: posted.ts, channel };
  }

  /** Slack delivers a message posted to a user's id in their direct messages with the app. */
  async directMessage(userId: string, text: string): Promise<void> {
    this.expect(userId, await this.api.postMessage({ channel: userId, text }), true);
  }

  async edit(message: PostedMessage, text: string, options: PostOptions): Promise<void> {
    const { channel, id } = message as SlackPosted;
    this.checkUsable(channel);
    const blocks = options.feedback !== undefined ? answerBlocks(text, options.feedback) : undefined;
    const result = await this.api.updateMessage(channel, id, text, { blocks, waitOutRateLimits: options.interim !== true });
    if (!result.ok && result.retryAfterSeconds !== undefined) throw new RateLimitedError(result.retryAfterSeconds * 1000, "Slack rate-limited chat.update");
    this.expect(channel, result);
  }

  async remove(message: PostedMessage): Promise<void> {
    const { channel, id } = message as SlackPosted;
    this.expect(channel, await this.api.deleteMessage(channel, id));
  }

  /**
   * A native stream in the answer's thread. None at the top of a DM (Slack streams only into
   * threads there), when answers are broadcast to the channel, or once Slack refused for good.
   */
  startStream(to: Destination, options: { notify: string }): NativeStream | undefined {
    const threadTs = to.location.threadId;
    if (!threadTs || this.options.broadcastAnswers || !this.streamingWorks || this.unusable.has(to.location.channelId)) return undefined;
    const stream = new SlackStream(this.api, { channel: to.location.channelId, threadTs, userId: options.notify, teamId: () => this.api.teamId() });
    return {
      get message() {
        return stream.message;
      },
      append: (markdown) => this.watching(() => stream.append(markdown)),
      task: (task) => this.watching(() => stream.task(task)),
      stop: (markdown, stopOptions) => stream.stop(markdown, stopOptions),
    };
  }

  async postFile(to: Destination, file: { name: string; text: string; note: string }): Promise<void> {
    const channel = to.location.channelId;
    this.checkUsable(channel);
    this.expect(channel, await this.api.uploadText({ channel, threadTs: to.location.threadId, ...file }));
  }

  startWorking(on: MessageRef): () => Promise<void> {
    const { channelId } = on.location;
    if (on.isDm && this.statusWorks) {
      const threadTs = on.location.threadId ?? on.messageId;
      const shown = this.api.setThreadStatus(channelId, threadTs, THINKING_STATUS).then((result) => {
        if (result.ok) return "status" as const;
        this.statusWorks = false;
        return this.api.addReaction(channelId, on.messageId, THINKING_REACTION).then(() => "reaction" as const);
      });
      return async () => {
        if ((await shown) === "status") await this.api.setThreadStatus(channelId, threadTs, "");
        else await this.api.removeReaction(channelId, on.messageId, THINKING_REACTION);
      };
    }
    const added = this.api.addReaction(channelId, on.messageId, THINKING_REACTION);
    return async () => {
      await added;
      if (!this.unusable.has(channelId)) await this.api.removeReaction(channelId, on.messageId, THINKING_REACTION);
    };
  }

  /** A stream Slack refuses with a missing scope or an unknown method will be refused everywhere: stop asking. */
  private async watching(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (/missing_scope|unknown_method|not_allowed_token_type|feature_not_enabled/.test((error as Error).message)) this.streamingWorks = false;
      throw error;
    }
  }

  /** A Slack thread needs no call: replying to a message with its ts as `thread_ts` starts it. */
  async openThread(on: MessageRef): Promise<Location> {
    return { channelId: on.location.channelId, threadId: on.messageId };
  }

  private checkUsable(channel: string): void {
    const until = this.unusable.get(channel);
    if (until === undefined) return;
    if (until > Date.now()) throw new Error("Slack refused earlier posts in this channel; not trying again for a minute");
    this.unusable.delete(channel);
  }

  /** The call's value; a refusal throws, and a refused post that means the channel is unusable pauses it. */
  private expect<T>(channel: string, result: SlackResult<T>, isPost = false): T {
    if (result.ok) return result.value;
    if (isPost && CHANNEL_UNUSABLE.has(result.error)) {
      if (this.unusable.size > 1_000) this.unusable.clear();
      this.unusable.set(channel, Date.now() + UNUSABLE_FOR_MS);
    }
    throw new Error(`Slack refused: ${result.error}`);
  }
}
