import {
  AttachmentBuilder,
  ChannelType,
  RateLimitError,
  Routes,
  type Client,
  type Message,
  type MessageMentionOptions,
  type SendableChannels,
} from "discord.js";
import { RateLimitedError, type ApprovalControls, type ChatSurface, type Destination, type PostedMessage, type PostOptions } from "../../contract/surface.js";
import type { Location } from "../../contract/inbound.js";
import { NO_PINGS, pingOnly } from "./allowed-mentions.js";
import { approvalButtons } from "./approval-buttons.js";
import type { ButtonRow } from "./button-row.js";
import { feedbackButtons } from "./feedback-buttons.js";
import { describeDiscordError, permissionHint } from "./errors.js";
import { keepTyping } from "./typing.js";
import type { Logger } from "../../log.js";

/** Discord's limit on a message's content. */
export const DISCORD_MESSAGE_LIMIT = 2_000;

/** A message the Discord surface posted: it knows how to edit itself (a channel message, or a slash command's reply). */
export interface DiscordPosted extends PostedMessage {
  /** `components` replaces its buttons (none: they stay as they are; an empty list takes them away). */
  edit(content: string, mentions: MessageMentionOptions, components?: Components): Promise<unknown>;
  remove?(): Promise<unknown>;
}

type Components = ButtonRow[];

const mentionsFor = (options: PostOptions): MessageMentionOptions => (options.notify ? pingOnly(options.notify) : NO_PINGS);
/** The end of an answer carries its 👍 / 👎. */
const componentsFor = (options: PostOptions): Components | undefined => (options.feedback !== undefined ? [feedbackButtons(options.feedback)] : undefined);

/** Discord as the presenter sees it. Every write sets allowed mentions: only the asker may be pinged. */
export class DiscordSurface implements ChatSurface {
  readonly platform = "discord";
  readonly messageLimit = DISCORD_MESSAGE_LIMIT;
  readonly answerInThread = false;
  readonly holdsQuickSteps = true;
  readonly offersFeedback = true;

  /** A request for approval: message components (Approve and Deny buttons) under its text. */
  readonly approvals: ApprovalControls = {
    post: async (to, text, approvalId) => {
      const channel = await this.sendable(to.location.channelId);
      const reply = to.replyTo ? { reply: { messageReference: to.replyTo, failIfNotExists: false } } : {};
      const message = await discordCall<Message>(() =>
        channel.send({ content: text, components: [approvalButtons(approvalId)], allowedMentions: NO_PINGS, ...reply }),
      );
      return postedMessage(message);
    },
    settle: async (message, text) => {
      await discordCall(() => (message as DiscordPosted).edit(text, NO_PINGS, []));
    },
  };

  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
  ) {}

  /** Discord reads Markdown; mentions in it are made harmless by allowed mentions, not by rewriting. */
  render(markdown: string): string {
    return markdown;
  }

  async post(to: Destination, text: string, options: PostOptions): Promise<DiscordPosted> {
    const channel = await this.sendable(to.location.channelId);
    const reply = to.replyTo ? { reply: { messageReference: to.replyTo, failIfNotExists: false } } : {};
    const components = componentsFor(options);
    const message = await discordCall<Message>(() =>
      channel.send({ content: text, allowedMentions: mentionsFor(options), ...(components ? { components } : {}), ...reply }),
    );
    return postedMessage(message);
  }

  async directMessage(userId: string, text: string): Promise<void> {
    const user = await discordCall(() => this.client.users.fetch(userId));
    await discordCall(() => user.send({ content: text, allowedMentions: NO_PINGS }));
  }

  async edit(message: PostedMessage, text: string, options: PostOptions): Promise<void> {
    await discordCall(() => (message as DiscordPosted).edit(text, mentionsFor(options), componentsFor(options)));
  }

  async remove(message: PostedMessage): Promise<void> {
    await discordCall(async () => (message as DiscordPosted).remove?.());
  }

  /** Typing, straight through REST: the channel or thread need not be in discord.js's cache (threads leave it once idle). */
  startWorking(on: { location: Location }): () => Promise<void> {
    const route = Routes.channelTyping(on.location.channelId);
    const stop = keepTyping({ sendTyping: async () => void (await this.client.rest.post(route)) }, this.logger);
    return async () => stop();
  }

  /** A public thread on the message, named after the question; none where the channel cannot hold threads. */
  async openThread(on: { location: Location; messageId: string }, title: string): Promise<Location | undefined> {
    const channel = await this.channel(on.location.channelId);
    if (channel?.type !== ChannelType.GuildText && channel?.type !== ChannelType.GuildAnnouncement) return undefined;
    const thread = await discordCall(() => channel.threads.create({ startMessage: on.messageId, name: title }));
    return { channelId: thread.id, parentChannelId: channel.id };
  }

  async postFile(to: Destination, file: { name: string; text: string; note: string }): Promise<void> {
    const channel = await this.sendable(to.location.channelId);
    const attachment = new AttachmentBuilder(Buffer.from(file.text, "utf8"), { name: file.name });
    await discordCall<Message>(() => channel.send({ content: file.note, files: [attachment], allowedMentions: NO_PINGS }));
  }

  private async sendable(channelId: string): Promise<SendableChannels> {
    const channel = await this.channel(channelId);
    if (!channel?.isSendable()) throw new Error(`the channel ${channelId} does not take messages from the bot`);
    return channel;
  }

  /** The channel or thread from discord.js's cache, or fetched when it is not there (threads leave it once idle). */
  private async channel(channelId: string) {
    return this.client.channels.cache.get(channelId) ?? (await discordCall(() => this.client.channels.fetch(channelId)));
  }
}

function postedMessage(message: Message): DiscordPosted {
  return {
    id: message.id,
    edit: (content, allowedMentions, components) => message.edit({ content, allowedMentions, ...(components ? { components } : {}) }),
    remove: () => message.delete(),
  };
}

/**
 * Runs a Discord call; a failure is rethrown as a plain error with Discord's code and a hint, never
 * the library's error, whose URL can hold an interaction token (a credential for 15 minutes).
 */
export async function discordCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Writes are not queued behind a rate limit (see createDiscordClient): say how long Discord asks to wait.
    if (error instanceof RateLimitError) {
      const waitMs = Math.max(error.retryAfter, error.timeToReset, error.sublimitTimeout, 0);
      throw new RateLimitedError(
        waitMs,
        `Discord rate-limited the bot: ${error.method.toUpperCase()} ${error.route}, retry after ${Math.round(waitMs / 1000)} s`,
      );
    }
    const described = describeDiscordError(error);
    const hint = permissionHint(error);
    throw Object.assign(new Error(`Discord refused: ${described.message}${hint ? ` (${hint})` : ""}`), { code: described.code, status: described.status });
  }
}
