import { lazyChild, type Logger } from "../log.js";
import { hasVisibleText } from "../text.js";
import { ChannelBudget } from "../presenter/channel-budget.js";
import type { ChatSurface, PostedMessage } from "../presenter/surface.js";
import { PRESENTER_TEXT } from "../presenter/texts.js";
import { TurnPresenter } from "../presenter/turn-presenter.js";
import type { Store } from "../store/store.js";
import type { ConversationRef } from "../store/types.js";
import { threadOf, type Actor, type IncomingMessage, type Location, type SharedContentSource } from "./incoming.js";
import { KeyedQueue } from "./keyed-queue.js";
import { RUNNER_TEXT } from "./turn-replies.js";
import type { TurnRunner } from "./turn-runner.js";
import type { SharedContent, TurnReply, TurnRequest, TurnView } from "./types.js";

/** What became of an incoming message. */
export type Receipt = { status: "ignored"; reason: string } | { status: "duplicate" } | { status: "hinted" } | TurnReply;

export interface PlatformInbox {
  /**
   * Hands a message to the core. Resolves once it was dealt with (a turn answered, or nothing to
   * do); never rejects. `placeholder` is a message already posted for the answer (Discord's
   * deferred /ask reply): the answer's first part replaces it.
   */
  receive(message: IncomingMessage, options?: { placeholder?: PostedMessage }): Promise<Receipt>;
}

export interface ConnectOptions {
  /** Answer direct messages (DISCORD_ALLOW_DMS, SLACK_ALLOW_DMS). */
  allowDms: boolean;
  /** How turns fetch the files and earlier messages a question shares, where the platform can. */
  content?: SharedContentSource;
}

export interface IntakeOptions {
  store: Store;
  runner: TurnRunner;
  logger: Logger;
  stepStartDelayMs: number;
  maxAnswerMessages: number;
  /** STREAM_EDIT_INTERVAL_MS, when answers are streamed (STREAM_ANSWERS); unset, they are not. */
  streamEditIntervalMs?: number;
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
 * message (each answered once, however often it is delivered), track the bot's threads, admit,
 * then queue the turn behind the conversation's earlier ones. Arrival order is kept per place.
 */
export class MessageIntake {
  private readonly arrivals = new KeyedQueue();
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
    };
  }

  /** Resolves once every message received so far has been dealt with. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async receive(surface: Outlet, connection: ConnectOptions, message: IncomingMessage, placeholder?: PostedMessage): Promise<Receipt> {
    const skip = ignoreReason(message, connection);
    if (skip) return this.ignore(message, skip);
    // Decided in arrival order per place; the turn itself then waits in its conversation's queue.
    const queued = await this.arrivals.run(placeKey(message), () =>
      this.admit(surface, connection, message, placeholder).catch((error) => this.failed(surface, message, placeholder, error)),
    );
    return "turn" in queued ? queued.turn : queued;
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

  private async admit(
    surface: Outlet,
    connection: ConnectOptions,
    message: IncomingMessage,
    placeholder?: PostedMessage,
  ): Promise<Receipt | { turn: Promise<TurnReply> }> {
    const { store, logger } = this.options;
    const thread = threadOf(message);
    const scope = thread && !message.isDm ? await store.threads.scopeOf(message.platform, thread.channelId, thread.threadId) : undefined;
    if (!message.viaCommand && !message.isDm && !message.mentionsBot && !scope) return this.ignore(message, "not addressed to the bot");
    // A message id is unique within its channel on every platform (Slack's ts is not unique across channels).
    // The claim is a unique insert: of several processes receiving the message, one wins.
    if (!(await store.events.claim(message.platform, `${message.channelId}:${message.messageId}`))) {
      logger.debug({ platform: message.platform, messageId: message.messageId, eventId: message.eventId }, "ignored a repeated delivery of a message");
      return { status: "duplicate" };
    }
    // Mentioned in a thread, the bot follows the thread from then on, as in the threads it opens.
    if (thread && !scope && !message.isDm) await store.threads.remember({ platform: message.platform, workspaceId: message.workspaceId, ...thread });

    const actor = message.resolveActor ? await message.resolveActor() : message.actor;
    const presenter = this.presenterFor(surface, message, actor, placeholder);
    if (!asksSomething(message)) {
      await presenter.finish({ turnId: "", status: "refused", outcome: "empty_question", text: PRESENTER_TEXT.emptyQuestion });
      return { status: "hinted" };
    }
    // Files and earlier messages are fetched in the turn, within its time: nothing here waits for them.
    // Resolves once the turn has its place in line, so the next message of this place lines up behind it.
    const accepted = await this.options.runner.accept(turnRequest(message, actor, scope === "channel", connection.content), presenter);
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
export function conversationOf(message: Location & { platform: string; workspaceId: string; isDm: boolean }, continuesChannel: boolean): ConversationRef {
  const base = { platform: message.platform, workspaceId: message.workspaceId };
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

function turnRequest(message: IncomingMessage, actor: Actor, continuesChannel: boolean, source: SharedContentSource | undefined): TurnRequest {
  return {
    ...conversationOf(message, continuesChannel),
    userId: actor.id,
    userName: actor.name ?? actor.id,
    text: message.text,
    parentChannelId: message.parentChannelId,
    userRoleIds: actor.roleIds,
    operator: actor.operator,
    isDm: message.isDm,
    senderMemberOf: message.memberOf,
    shared: sharedContent(message, source),
  };
}

const placeKey = (message: IncomingMessage) => JSON.stringify([message.platform, message.workspaceId, message.channelId, message.threadId ?? ""]);
