import { hasVisibleText } from "../text.js";
import { answerOptions, pacedAt, recordWrite, sleepUntil, type AnswerContext } from "./answer-pacing.js";
import { answerLayout, postAnswerFile } from "./answer-writer.js";
import { waitingOutRateLimits } from "./rate-limits.js";
import { splitMessage } from "./split-message.js";
import type { RateLimitedError, PostedMessage } from "../contract/surface.js";
import { hasCode } from "../errors.js";

/** One message of the answer as the user sees it now. */
interface Shown {
  message: PostedMessage;
  /** Its text now; undefined while it still shows something else (a slash command's "thinking…"). */
  text?: string;
  lastWriteAt: number;
  /** The answer's writes into it so far. */
  writes: number;
  /** A rate limit said not before then. */
  blockedUntil: number;
}

/** A slash command's reply that expires within this is treated as expired (a write takes time). */
const EXPIRY_MARGIN_MS = 5_000;

/**
 * A streamed answer as messages the bot posts and edits: each written at most once per interval,
 * in-between edits within the channel's budget, a new message past the platform's limit, and at
 * the end exactly the messages (and file) the answer would have had without streaming.
 */
export class PostedAnswer {
  private readonly messages: Shown[] = [];

  constructor(
    private readonly context: AnswerContext,
    placeholder: PostedMessage | undefined,
  ) {
    if (placeholder) this.messages.push({ message: placeholder, lastWriteAt: 0, writes: 0, blockedUntil: 0 });
  }

  /** No message shows any of the answer yet. */
  get nothingShown(): boolean {
    return this.messages.every((m) => m.text === undefined);
  }

  /** Goes on in a message already there (a native stream's, once the stream ended), last written at `lastWriteAt`. */
  adopt(message: PostedMessage | undefined, lastWriteAt: number): void {
    if (message && this.messages.length === 0) this.messages.push({ message, text: undefined, lastWriteAt, writes: 0, blockedUntil: 0 });
  }

  /** Does the next write that is due for `text`; returns when the one after may happen (undefined: when news comes). */
  async write(text: string): Promise<number | undefined> {
    if (!hasVisibleText(text)) return undefined;
    const parts = this.liveParts(text);
    for (const [index, part] of parts.entries()) {
      const shown = this.messages[index];
      if (shown && shown.text === part) continue;
      if (!shown || shown.text === undefined || this.expired(shown)) {
        // First appearances are not held back: the user sees the text as soon as it is there.
        await this.place(index, part, true);
        return performance.now();
      }
      const at = pacedAt(this.context, shown.lastWriteAt, shown.blockedUntil);
      if (at > performance.now()) return at;
      await this.interimEdit(shown, part);
      return performance.now();
    }
    return undefined;
  }

  /**
   * Leaves the messages in the answer's final layout for `markdown`, the rest in a file where it is
   * too long; the last message is written once more with the turn's 👍 / 👎 (`feedback`) where the
   * surface offers them.
   */
  async finish(markdown: string, feedback?: string): Promise<void> {
    const { surface, maxMessages, logger, intervalMs } = this.context;
    const layout = answerLayout(surface, markdown, maxMessages);
    for (const [index, part] of layout.parts.entries()) {
      const shown = this.messages[index];
      const tag = surface.offersFeedback && index === layout.parts.length - 1 ? feedback : undefined;
      if (shown?.text === part && !this.expired(shown) && tag === undefined) continue;
      if (!shown || shown.text === undefined || this.expired(shown)) {
        await this.place(index, part, false, tag);
        continue;
      }
      // The last edit keeps to the message's interval too (not to the channel's budget: it must happen),
      // where it was edited on the way. Written once only, the whole text came within its first
      // interval: the end follows at once, as two writes are no stream to pace.
      await sleepUntil(shown.writes > 1 ? shown.lastWriteAt + intervalMs : 0, shown.blockedUntil);
      recordWrite(this.context);
      try {
        await waitingOutRateLimits(() => surface.edit(shown.message, part, { ...answerOptions(this.context, index), feedback: tag }));
        shown.text = part;
        shown.lastWriteAt = performance.now();
        shown.writes++;
      } catch (error) {
        logger.warn({ err: error }, "could not update the streamed answer's message; posting its final text anew");
        shown.text = undefined;
        shown.message = { id: shown.message.id, editableUntil: 0 };
        await this.place(index, part, false, tag);
      }
    }
    // Messages the final answer does not need (it came out shorter than text shown before a retraction).
    for (const extra of this.messages.splice(layout.parts.length)) {
      if (extra.text === undefined) continue;
      try {
        if (surface.remove) await surface.remove(extra.message);
        else await surface.edit(extra.message, "…", { kind: "answer" });
      } catch (error) {
        logger.warn({ err: error }, "could not take back a message the answer no longer needs");
      }
    }
    if (layout.inFile) await postAnswerFile(surface, this.context.destination!, markdown, layout);
  }

  /**
   * The parts shown while the answer is written. The last may still grow or move; messages past
   * the layout's own (`maxMessages`, then a file) wait for the end, so none has to be taken back.
   */
  private liveParts(markdown: string): string[] {
    const { surface, maxMessages } = this.context;
    const parts = splitMessage(surface.render(markdown), surface.messageLimit);
    const live = surface.postFile ? Math.max(1, maxMessages - 1) : Number.POSITIVE_INFINITY;
    return parts.slice(0, live);
  }

  private expired(shown: Shown): boolean {
    return shown.message.editableUntil !== undefined && Date.now() > shown.message.editableUntil - EXPIRY_MARGIN_MS;
  }

  /** Posts part `index` (or writes it into the placeholder), replacing a message that can no longer be edited. */
  private async place(index: number, part: string, interim: boolean, feedback?: string): Promise<void> {
    const { surface, logger } = this.context;
    const shown = this.messages[index];
    recordWrite(this.context);
    const options = { ...answerOptions(this.context, index), interim, ...(feedback !== undefined ? { feedback } : {}) };
    if (shown && shown.text === undefined && !this.expired(shown)) {
      try {
        await waitingOutRateLimits(() => surface.edit(shown.message, part, options));
        Object.assign(shown, { text: part, lastWriteAt: performance.now(), writes: shown.writes + 1 });
        this.context.becameVisible();
        return;
      } catch (error) {
        logger.warn({ err: error }, "could not write the answer into its message; posting it instead");
      }
    }
    const message = await waitingOutRateLimits(() => surface.post(this.context.destination!, part, options));
    this.messages[index] = { message, text: part, lastWriteAt: performance.now(), writes: 1, blockedUntil: 0 };
    this.context.becameVisible();
  }

  private async interimEdit(shown: Shown, part: string): Promise<void> {
    const index = this.messages.indexOf(shown);
    recordWrite(this.context);
    try {
      await this.context.surface.edit(shown.message, part, { ...answerOptions(this.context, index), interim: true });
      shown.text = part;
      shown.lastWriteAt = performance.now();
      shown.writes++;
    } catch (error) {
      if (hasCode<RateLimitedError>(error, "platform_rate_limited")) {
        shown.blockedUntil = performance.now() + error.retryAfterMs;
        return;
      }
      // A message that cannot be edited (deleted, an expired token): the text goes on in a new one.
      this.context.logger.warn({ err: error }, "could not update the streamed answer; posting it anew");
      shown.text = undefined;
      shown.message = { id: shown.message.id, editableUntil: 0 };
    }
  }
}
