import { lazyChild, type Logger } from "../log.js";
import { hasVisibleText } from "../text.js";
import { ChannelBudget } from "../presenter/channel-budget.js";
import type { ChatSurface, PostedMessage } from "../contract/surface.js";
import { PRESENTER_TEXT } from "../presenter/texts.js";
import { TurnPresenter } from "../presenter/turn-presenter.js";
import type { ClaimOutcome, Store, ThreadScope } from "../store/store.js";
import type { ConversationRef } from "../store/types.js";
import { threadOf, type Actor, type IncomingMessage, type Location, type SharedContentSource } from "../contract/inbound.js";
import type { LinePlace } from "./conversation-line.js";
import type { HistoryRecorder } from "./history-recorder.js";
import { arrivalOrder, holdUntil } from "./message-order.js";
import { RUNNER_TEXT } from "./turn-replies.js";
import type { TurnRunner } from "./turn-runner.js";
import type { TurnRequest } from "./types.js";
import type { TurnReply, TurnView } from "../contract/turn-view.js";
import type { MessageLinker, PlatformInbox, Receipt } from "../contract/link.js";
import type { SharedContent } from "../contract/inbound.js";
import type { AskerChannelReader, ChannelReader } from "../contract/channel-access.js";

export interface ConnectOptions {
  /** Answer direct messages (DISCORD_ALLOW_DMS, SLACK_ALLOW_DMS). */
  allowDms: boolean;
  /** Each message arrives once (PlatformConnection.deliversOnce): no claim against a second delivery. */
  deliversOnce?: boolean;
  /** How turns fetch the files and earlier messages a question shares, where the platform can. */
  content?: SharedContentSource;
  /** Links to messages, for search results. */
  messageLink?: MessageLinker;
  /** Whether a person may read another channel of the workspace, for search_history's `channel:`. */
  readableChannel?: ChannelReader;
}

export interface IntakeOptions {
  store: Store;
  runner: TurnRunner;
  logger: Logger;
  /** This process run's id in the store: the places its messages take carry it. */
  instance: string;
  /** TURN_ORDER_HOLD_MS: how long after its platform stamped it a message waits for an earlier one still on its way. */
  orderHoldMs: number;
  stepStartDelayMs: number;
  maxAnswerMessages: number;
  /** STREAM_EDIT_INTERVAL_MS, when answers are streamed (STREAM_ANSWERS); unset, they are not. */
  streamEditIntervalMs?: number;
  /** Where messages of channels with history on, edits and deletions go (see HistoryRecorder). */
  history?: HistoryRecorder;
}

/** A connected platform's surface, with its channels' budget when answers stream. */
interface Outlet {
  surface: ChatSurface;
  streaming?: { intervalMs: number; budget: ChannelBudget };
}

/** A channel's writes per window of this many edit intervals (see ChannelBudget). */
const CHANNEL_WRITES_PER_WINDOW = 5;

/**
 * The core's front door for every platform, in this order: ignore what is not a question for the
 * bot (its own messages, other bots, edits, system messages, talk not addressed to it), claim the
 * message (each answered once, however often it is delivered) and take its place in its
 * conversation's line in the same statement, before anything else is looked up; then track the
 * bot's threads, admit, and let the turn run once the messages before it in the platform's order
 * have had theirs.
 */
export class MessageIntake {
  private readonly inFlight = new Set<Promise<Receipt>>();

  constructor(private readonly options: IntakeOptions) {}

  /** Connects a platform's surface; its adapter gets the inbox. */
  connect(surface: ChatSurface, connection: ConnectOptions): PlatformInbox {
    const interval = this.options.streamEditIntervalMs;
    const streaming =
      interval === undefined ? undefined : { intervalMs: interval, budget: new ChannelBudget(CHANNEL_WRITES_PER_WINDOW, CHANNEL_WRITES_PER_WINDOW * interval) };
    return {
      receive: (message, extras = {}) => {
        const receipt = this.receive({ surface, streaming }, connection, message, extras.placeholder).catch((error): Receipt => {
          this.options.logger.error({ err: error, platform: message.platform, messageId: message.messageId }, "could not handle a message");
          return { status: "ignored", reason: "an error in the core" };
        });
        this.inFlight.add(receipt);
        void receipt.finally(() => this.inFlight.delete(receipt));
        return receipt;
      },
      stop: (conversation) => this.options.runner.stop(conversation),
      deleted: (deleted) => this.options.history?.forget(deleted),
      edited: (where, text) => this.options.history?.edit({ ...where, messageIds: [where.messageId] }, text),
    };
  }

  /** Resolves once every message received so far has been dealt with. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async receive(surface: Outlet, connection: ConnectOptions, message: IncomingMessage, placeholder?: PostedMessage): Promise<Receipt> {
    // A question to the bot is indexed as its exchange once answered (not before: a search would find the question asking it).
    const ambient =
      !message.isDm && !message.isOwn && !message.actor.isBot && !message.isSystem && !message.isEdit && !message.mentionsBot && !message.viaCommand;
    if (ambient) this.indexIfHistoryOn(message, connection);
    const skip = ignoreReason(message, connection);
    if (skip) return this.ignore(message, skip);
    const addressed = Boolean(message.viaCommand || message.isDm || message.mentionsBot);
    // Messages that come once, to this process alone, one after another (the terminal's lines), are
    // in order already: their place is taken with their admission, in its transaction (TurnRunner).
    const placedWithAdmission = connection.deliversOnce === true && threadOf(message) === undefined;
    if (placedWithAdmission && !addressed) return this.ignore(message, "not addressed to the bot");
    let place: LinePlace | undefined;
    let scope: ThreadScope | undefined;
    if (!placedWithAdmission) {
      // Taken now, before any other lookup, so that a message's place does not depend on how long its admission takes.
      const hold = holdUntil(message.order, this.options.orderHoldMs);
      let claimed: ClaimOutcome;
      try {
        claimed = await this.claim(message, connection, addressed);
      } catch (error) {
        return this.failed(surface, message, placeholder, error);
      }
      if ("skipped" in claimed) {
        if (claimed.skipped === "not_addressed") return this.ignore(message, "not addressed to the bot");
        this.options.logger.debug(
          { platform: message.platform, messageId: message.messageId, eventId: message.eventId },
          "ignored a repeated delivery of a message",
        );
        return { status: "duplicate" };
      }
      place = { ticket: claimed.placed, holdUntil: hold };
      scope = claimed.scope;
    }
    let handedOver = false;
    try {
      const queued = await this.admit(surface, connection, message, placeholder, scope, place, () => (handedOver = true));
      return "turn" in queued ? queued.turn : queued;
    } catch (error) {
      if (!handedOver && place) await this.options.runner.giveUp(place);
      return this.failed(surface, message, placeholder, error);
    }
  }

  /**
   * The message's claim and its place in line, in one statement. A message id is unique within its
   * channel on every platform (Slack's ts is not unique across channels). In a thread, the bot
   * answers messages that do not mention it only in its own threads, which the same statement looks up.
   */
  private claim(message: IncomingMessage, connection: ConnectOptions, addressed: boolean): Promise<ClaimOutcome> {
    const thread = threadOf(message);
    const inThread = thread && !message.isDm ? thread : undefined;
    return this.options.runner.claim({
      conversation: conversationOf(message, false),
      instance: this.options.instance,
      order: message.order?.key ?? arrivalOrder(),
      claim: connection.deliversOnce ? undefined : { platform: message.platform, eventId: `${message.channelId}:${message.messageId}` },
      thread: inThread && { ...inThread, channelConversation: conversationOf(message, true) },
      addressed,
    });
  }

  /**
   * The store or the platform failed before the turn was queued: the log gets the detail, and a
   * message clearly addressed to the bot gets a short apology rather than silence.
   */
  private async failed(surface: Outlet, message: IncomingMessage, placeholder: PostedMessage | undefined, error: unknown): Promise<Receipt> {
    this.options.logger.error({ err: error, platform: message.platform, messageId: message.messageId }, "could not take a message");
    const reply: TurnReply = { turnId: "", status: "failed", outcome: "error", text: RUNNER_TEXT.unexpected };
    if (message.viaCommand || message.isDm || message.mentionsBot) await this.presenterFor(surface, message, message.actor, placeholder).finish(reply);
    return reply;
  }

  /** After the claim (if any): the place is given up by the runner once `handedOver` was called, by the caller before. */
  private async admit(
    surface: Outlet,
    connection: ConnectOptions,
    message: IncomingMessage,
    placeholder: PostedMessage | undefined,
    scope: ThreadScope | undefined,
    place: LinePlace | undefined,
    handedOver: () => void,
  ): Promise<Receipt | { turn: Promise<TurnReply> }> {
    const { store, runner } = this.options;
    const thread = threadOf(message);
    // Mentioned in a thread, the bot follows the thread from then on, as in the threads it opens.
    if (thread && !scope && !message.isDm) await store.threads.remember({ platform: message.platform, workspaceId: message.workspaceId, ...thread });

    const actor = message.resolveActor ? await message.resolveActor() : message.actor;
    const presenter = this.presenterFor(surface, message, actor, placeholder);
    if (!asksSomething(message)) {
      handedOver();
      if (place) await runner.giveUp(place);
      await presenter.finish({ turnId: "", status: "refused", outcome: "empty_question", text: PRESENTER_TEXT.emptyQuestion });
      return { status: "hinted" };
    }
    // Files and earlier messages are fetched in the turn, within its time: nothing here waits for them.
    handedOver();
    const accepted = await runner.accept(turnRequest(message, actor, scope === "channel", connection), presenter, place);
    return { turn: accepted.reply };
  }

  private presenterFor(outlet: Outlet, message: IncomingMessage, actor: Actor, placeholder?: PostedMessage): TurnView {
    const { store, logger, stepStartDelayMs, maxAnswerMessages } = this.options;
    return new TurnPresenter({
      surface: outlet.surface,
      streaming: outlet.streaming,
      question: { location: message, messageId: message.messageId, isDm: message.isDm, askerId: actor.id, text: message.text, placeholder },
      stepStartDelayMs,
      maxAnswerMessages,
      logger: lazyChild(logger, { platform: message.platform, messageId: message.messageId }),
      onThreadOpened: (opened: Location) => {
        const thread = threadOf(opened);
        if (!thread || message.isDm) return;
        store.threads.remember({ platform: message.platform, workspaceId: message.workspaceId, ...thread }).catch((error: unknown) => {
          logger.warn({ err: error }, "could not remember the bot's new thread");
        });
      },
    });
  }

  /**
   * In a channel whose admins turned history on, every message people post is indexed as it
   * arrives: the channel's setting is read (cached, as for every turn) and the entry queued, off
   * the message's path.
   */
  private indexIfHistoryOn(message: IncomingMessage, connection: ConnectOptions): void {
    const { history, store, logger } = this.options;
    if (!history || !hasVisibleText(message.text)) return;
    const place = historyPlaceOf(message);
    store.channelSettings
      .get({ platform: message.platform, workspaceId: message.workspaceId, channelId: place.channelId })
      .then(async (settings) => {
        if (settings.history !== true) return;
        // The name as people see it (Slack's users.info, cached); the id when the platform cannot say.
        const actor = message.resolveActor ? await message.resolveActor().catch(() => message.actor) : message.actor;
        history.add({
          platform: message.platform,
          workspaceId: message.workspaceId,
          ...place,
          messageId: message.messageId,
          kind: "message",
          authorId: actor.id,
          authorName: actor.name ?? actor.id,
          text: message.text,
          link: linkOf(connection, message),
          time: message.order?.sentAt ?? Date.now(),
        });
      })
      .catch((error: unknown) => logger.warn({ err: error, platform: message.platform }, "could not index a message"));
  }

  private ignore(message: IncomingMessage, reason: string): Receipt {
    this.options.logger.debug({ platform: message.platform, messageId: message.messageId, eventId: message.eventId, reason }, "no turn for this message");
    return { status: "ignored", reason };
  }
}

function ignoreReason(message: IncomingMessage, connection: ConnectOptions): string | undefined {
  if (message.isOwn) return "the bot's own message";
  if (message.actor.isBot) return "a message from a bot";
  if (message.isSystem) return "a system message";
  if (message.isEdit) return "an edit of an earlier message";
  if (message.isDm && !connection.allowDms) return "a direct message, and direct messages are off";
  return undefined;
}

/**
 * The conversation a message belongs to: a direct message is one conversation; a thread is its
 * own, except threads of earlier versions that continue their channel's.
 */
export function conversationOf(
  message: Location & { platform: string; workspaceId: string; isDm: boolean; ownConversation?: string },
  continuesChannel: boolean,
): ConversationRef {
  const base = { platform: message.platform, workspaceId: message.workspaceId };
  if (message.ownConversation) return { ...base, channelId: message.parentChannelId ?? message.channelId, threadId: message.ownConversation };
  if (message.isDm) return { ...base, channelId: message.parentChannelId ?? message.channelId };
  if (continuesChannel) return { ...base, channelId: message.parentChannelId ?? message.channelId };
  return { ...base, channelId: message.channelId, ...(message.threadId ? { threadId: message.threadId } : {}) };
}

/**
 * A question is text, or something shared to ask about without words: a file, a forwarded
 * message, a reply to a message that says or holds something (a bare mention replying to a
 * screenshot asks about it).
 */
function asksSomething(message: IncomingMessage): boolean {
  const hasContent = (quoted: { text: string; attachments: unknown[] }) => hasVisibleText(quoted.text) || quoted.attachments.length > 0;
  if (hasVisibleText(message.text) || message.attachments.length > 0) return true;
  if (message.forwarded?.some(hasContent)) return true;
  return message.replyTo ? hasContent(message.replyTo) : message.repliesTo !== undefined;
}

function sharedContent(message: IncomingMessage, source: SharedContentSource | undefined): SharedContent | undefined {
  const { attachments, replyTo, repliesTo, forwarded } = message;
  if (attachments.length === 0 && !replyTo && !repliesTo && !forwarded?.length) return undefined;
  const location = { channelId: message.channelId, threadId: message.threadId, parentChannelId: message.parentChannelId };
  return { location, attachments, replyTo, repliesTo, forwarded, source };
}

/** A message's link, made once; a platform that cannot make it leaves it out. */
const linkOf = (connection: ConnectOptions, message: IncomingMessage) => connection.messageLink?.(message).catch(() => undefined);

/** Where the history index keeps a message: its channel (a Discord thread's parent), and the thread in it. */
function historyPlaceOf(location: Location): { channelId: string; threadId?: string } {
  const thread = threadOf(location);
  return { channelId: thread?.channelId ?? location.channelId, ...(thread ? { threadId: thread.threadId } : {}) };
}

function turnRequest(message: IncomingMessage, actor: Actor, continuesChannel: boolean, connection: ConnectOptions): TurnRequest {
  const source = connection.content;
  return {
    ...conversationOf(message, continuesChannel),
    userId: actor.id,
    messageId: message.messageId,
    userName: actor.name ?? actor.id,
    text: message.text,
    parentChannelId: message.parentChannelId,
    userRoleIds: actor.roleIds,
    operator: actor.operator,
    isDm: message.isDm,
    senderMemberOf: message.memberOf,
    shared: sharedContent(message, source),
    posted: { ...historyPlaceOf(message), messageId: message.messageId, link: linkOf(connection, message), time: message.order?.sentAt ?? Date.now() },
    readChannel: askerReader(connection.readableChannel, message, actor),
  };
}

/**
 * The platform's check bound to the asker and their workspace: the model names a channel, never
 * a workspace or a person. None in a direct message: it searches only itself.
 */
function askerReader(reader: ChannelReader | undefined, message: IncomingMessage, actor: Actor): AskerChannelReader | undefined {
  if (!reader || message.isDm) return undefined;
  return (channel) => reader({ workspaceId: message.workspaceId, userId: actor.id, channel });
}
