import type { Client, Message } from "discord.js";
import type { Logger } from "../../log.js";
import { waitingOutRateLimits } from "../../presenter/rate-limits.js";
import { describeDiscordError } from "./errors.js";
import { discordCall } from "./surface.js";

/** The longest a message waits for its thread to be looked up before it is dropped (with a warning). */
const LOOKUP_TIMEOUT_MS = 15_000;

/**
 * Messages of channels discord.js no longer holds. Threads leave its cache once idle (see
 * caches.ts); a message in one arrives with a bare thread (its id and type, no parent channel),
 * which would read as a channel of its own: a follow-up in the bot's old thread would not be
 * recognised as one. Such a message waits for its thread to be fetched; messages of the same
 * channel that arrive meanwhile wait behind it, so the core still gets them in their order.
 */
export class KnownChannels {
  /** Per channel id: the last message in line for it, while one is waiting. */
  private readonly waiting = new Map<string, Promise<void>>();

  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
  ) {}

  /** Runs `read` at once when the message's channel is known and nothing waits before it; else once it is (fetched). */
  whenKnown(message: Message, read: () => void): void {
    const channelId = message.channelId;
    const before = this.waiting.get(channelId);
    if (!before && !needsLookup(message)) return read();
    const next = (before ?? Promise.resolve()).then(async () => {
      if (needsLookup(message) && !(await this.lookUp(channelId, message.id))) return;
      read();
    });
    this.waiting.set(channelId, next);
    void next.finally(() => {
      if (this.waiting.get(channelId) === next) this.waiting.delete(channelId);
    });
  }

  /** Fetches the channel into the cache (the message reads it from there); false, after a warning, when that failed. */
  private async lookUp(channelId: string, messageId: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = performance.now() + LOOKUP_TIMEOUT_MS;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${LOOKUP_TIMEOUT_MS} ms`)), LOOKUP_TIMEOUT_MS);
    });
    try {
      const fetched = waitingOutRateLimits(
        () => discordCall(() => this.client.channels.fetch(channelId, { force: true })),
        () => deadline,
      );
      fetched.catch(() => {});
      await Promise.race([fetched, timedOut]);
      return true;
    } catch (error) {
      this.logger.warn({ err: describeDiscordError(error), channelId, messageId }, "could not look up the thread of a Discord message; dropped it");
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A thread discord.js knows only from the message (no parent channel): it left the cache. */
function needsLookup(message: Message): boolean {
  const channel = message.channel;
  return channel.isThread() && channel.parentId === null;
}
