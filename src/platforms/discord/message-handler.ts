import { ChannelType, type Message } from "discord.js";
import type { App } from "../../app.js";
import type { Logger } from "../../log.js";
import type { TurnRequest } from "../../runner/types.js";
import { NO_PINGS } from "./allowed-mentions.js";
import { conversationOf, mentionsBot, PLATFORM, questionText } from "./conversation.js";
import { describeDiscordError } from "./errors.js";
import { messageReplySink } from "./message-sink.js";
import { actorFlags, memberRoleIds } from "./permissions.js";
import { keepTyping } from "./typing.js";

/** Why a message is for the bot. */
type Trigger = "mention" | "bot_thread" | "dm";

export interface MessageHandlerOptions {
  allowDms: boolean;
  adminUserIds: readonly string[];
}

const EMPTY_QUESTION = "Hi! Ask me something after the mention, for example: what is the hypotenuse of a 3 by 4 triangle?";

/**
 * Turns Discord messages into turns: mentions of the bot, anything said in a thread the bot
 * opened, and DMs (when allowed). Bots, webhooks and system messages are ignored, and a
 * message id starts at most one turn, however often the gateway delivers it.
 */
export class MessageHandler {
  constructor(
    private readonly app: App,
    private readonly logger: Logger,
    private readonly options: MessageHandlerOptions,
  ) {}

  /** Decides synchronously whether the message is for the bot; the turn then runs in the background. */
  handle(message: Message): void {
    const trigger = this.triggerOf(message);
    if (!trigger) return;
    if (!this.app.store.events.firstDelivery(PLATFORM, message.id)) {
      this.logger.debug({ messageId: message.id }, "ignored a repeated delivery of a message");
      return;
    }
    void this.run(message, trigger).catch((error) =>
      this.logger.error({ err: describeDiscordError(error), messageId: message.id }, "could not handle a Discord message"),
    );
  }

  private triggerOf(message: Message): Trigger | undefined {
    if (message.author.bot || message.webhookId || message.system) return undefined;
    const botId = message.client.user.id;
    const channel = message.channel;
    if (channel.type === ChannelType.DM) return this.options.allowDms ? "dm" : undefined;
    if (!message.inGuild()) return undefined;
    if (mentionsBot(message, botId)) return "mention";
    if (channel.isThread() && channel.parentId && this.app.store.threads.isBotThread(PLATFORM, channel.parentId, channel.id)) {
      return "bot_thread";
    }
    return undefined;
  }

  private async run(message: Message, trigger: Trigger): Promise<void> {
    const channel = message.channel;
    if (!channel.isSendable()) return;
    const text = questionText(message, message.client.user.id);
    if (text === "") {
      await message.reply({ content: EMPTY_QUESTION, allowedMentions: NO_PINGS, failIfNotExists: false });
      return;
    }
    const inDm = trigger === "dm";
    const { isAdmin } = actorFlags(message.author.id, message.member?.permissions, this.options.adminUserIds, inDm);
    const request: TurnRequest = {
      ...conversationOf(channel.id, message.guildId),
      userId: message.author.id,
      userName: message.member?.displayName ?? message.author.displayName,
      text,
      isAdmin,
      parentChannelId: channel.isThread() ? (channel.parentId ?? undefined) : undefined,
      userRoleIds: memberRoleIds(message.member),
    };
    const logger = this.logger.child({ messageId: message.id, trigger });
    const stopTyping = keepTyping(channel, logger);
    try {
      await this.app.runner.submit(request, messageReplySink(message, channel, request, this.app.store, logger, this.app.config.STEP_START_DELAY_MS));
    } finally {
      stopTyping();
    }
  }
}
