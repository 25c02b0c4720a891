import type { Logger } from "../log.js";
import { hasVisibleText } from "../text.js";
import { answerLayout, postAnswerFile } from "./answer-writer.js";
import type { ChannelBudget } from "./channel-budget.js";
import { waitingOutRateLimits } from "./rate-limits.js";
import { splitMessage } from "./split-message.js";
import {
  RateLimitedError,
  type ChatSurface,
  type Destination,
  type NativeStream,
  type PostedMessage,
  type PostOptions,
  type StreamTask,
} from "./surface.js";

export interface AnswerStreamOptions {
  surface: ChatSurface;
  /** Where the answer goes (resolved once, when the first text is shown). */
  destination: () => Promise<Destination>;
  /** A message already there for the answer (a slash command's deferred reply): its first part goes there. */
  placeholder?: PostedMessage;
  /** The asker: the first message may notify them, and nobody else. */
  notify: string;
  maxMessages: number;
  /** STREAM_EDIT_INTERVAL_MS: a message is written at most once per interval. */
  intervalMs: number;
  budget: ChannelBudget;
  logger: Logger;
  /** Resolves once the steps shown so far are on screen: the answer comes after them. */
  before: () => Promise<void>;
  /** Called once, when the first text of the answer is visible. */
  onVisible: () => void;
}

/** One message of the answer as the user sees it now. */
interface Shown {
  message: PostedMessage;
  /** Its text now; undefined while it still shows something else (a slash command's "thinking…"). */
  text?: string;
  lastWriteAt: number;
  /** A rate limit said not before then. */
  blockedUntil: number;
}

/** A slash command's reply that expires within this is treated as expired (a write takes time). */
const EXPIRY_MARGIN_MS = 5_000;

/**
 * Shows an answer while the model writes it, through the platform's native stream when it has
 * one, else by posting a message and editing it. Each message is written at most once per
 * interval and in-between edits fit in the channel's budget; a rate limit makes it wait as asked,
 * and whatever text arrived meanwhile goes in the next write. Past the platform's limit the text
 * goes on in a new message, and `finish` leaves exactly the messages the answer would have had
 * without streaming. Nothing is written once `finish` has returned. Never throws: a platform
 * that refuses is logged.
 */
export class AnswerStream {
  private text = "";
  private readonly messages: Shown[] = [];
  private readonly tasks: StreamTask[] = [];
  private native?: NativeStream;
  /** Unknown until the surface was asked; off once it refused or the stream ended early. */
  private nativeState: "unknown" | "on" | "off";
  /** Markdown appended to the native stream so far. */
  private appended = "";
  private nativeLastWriteAt = 0;
  private nativeBlockedUntil = 0;
  private destination?: Destination;
  private pump?: Promise<void>;
  private closed = false;
  private visible = false;
  private wake?: () => void;
  private timer?: NodeJS.Timeout;
  private waitingForNews = false;

  constructor(private readonly options: AnswerStreamOptions) {
    this.nativeState = options.surface.startStream && !options.placeholder ? "unknown" : "off";
    if (options.placeholder) this.messages.push({ message: options.placeholder, lastWriteAt: 0, blockedUntil: 0 });
  }

  /** The answer's text since the last retraction. */
  get partial(): string {
    return this.text;
  }

  /** Something of the answer is on screen. */
  get shown(): boolean {
    return this.visible;
  }

  push(delta: string): void {
    this.text += delta;
    this.kick();
  }

  /** What was shown was not the answer: the next text replaces it. */
  retract(): void {
    this.text = "";
    this.kick();
  }

  /** A tool step, for native streams that show tasks. */
  task(task: StreamTask): void {
    if (this.nativeState === "off" || this.closed) return;
    this.tasks.push(task);
    this.kick();
  }

  /**
   * Ends the stream with `markdown` as the answer and the messages in its final layout. Resolves
   * false when nothing was shown yet (the caller then posts the answer the ordinary way).
   */
  async finish(markdown: string): Promise<boolean> {
    this.closed = true;
    this.wakeNow();
    await this.pump;
    if (!this.visible && this.messages.every((m) => m.text === undefined) && !this.native?.message) return false;
    try {
      await this.finishNative(markdown);
      await this.finishMessages(markdown);
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not show the end of a streamed answer");
    }
    return true;
  }

  private kick(): void {
    if (this.closed) return;
    this.pump ??= this.run();
    if (this.waitingForNews) this.wakeNow();
  }

  private wakeNow(): void {
    clearTimeout(this.timer);
    this.wake?.();
  }

  private async run(): Promise<void> {
    // Text that arrived in one read of the model's stream goes in the first write together.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await this.options.before();
      this.destination = await this.options.destination();
      while (!this.closed) {
        const next = await this.writeOnce();
        if (this.closed) break;
        await this.sleep(next);
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not stream the answer");
    }
  }

  /** Waits until `until` (performance.now() time), or for news when undefined; `finish` ends any wait. */
  private sleep(until: number | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.waitingForNews = until === undefined;
      if (until !== undefined) this.timer = setTimeout(resolve, Math.max(0, until - performance.now()));
    }).finally(() => {
      this.wake = undefined;
      this.waitingForNews = false;
    });
  }

  /** Does the next write that is due; returns when the one after may happen (undefined: when news comes). */
  private async writeOnce(): Promise<number | undefined> {
    if (this.nativeState !== "off") {
      const next = await this.writeNative();
      // writeNative may have switched to posting and editing.
      if ((this.nativeState as string) !== "off") return next;
    }
    return this.writeMessages();
  }

  // --- native streams ---------------------------------------------------------------------------

  private async writeNative(): Promise<number | undefined> {
    try {
      if (this.nativeState === "unknown") {
        this.native = this.options.surface.startStream!(this.destination!, { notify: this.options.notify });
        this.nativeState = this.native ? "on" : "off";
        if (!this.native) return undefined;
      }
      const native = this.native!;
      const task = this.tasks.shift();
      if (task) {
        if (native.task) await this.nativeWrite(() => native.task!(task));
        return performance.now();
      }
      const text = this.text;
      // Text the stream cannot take back (a retraction) or that needs a second message: edit instead.
      if (!text.startsWith(this.appended) || splitMessage(this.options.surface.render(text), this.options.surface.messageLimit).length > 1) {
        await this.leaveNative();
        return performance.now();
      }
      const rest = text.slice(this.appended.length);
      if (rest === "" || !hasVisibleText(text)) return undefined;
      const at = this.appended === "" ? performance.now() : this.pacedAt(this.nativeLastWriteAt, this.nativeBlockedUntil);
      if (at > performance.now()) return at;
      await this.nativeWrite(() => native.append(rest));
      this.appended = text;
      this.nativeLastWriteAt = performance.now();
      this.becameVisible();
      return text === this.text ? undefined : this.pacedAt(this.nativeLastWriteAt, this.nativeBlockedUntil);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        this.nativeBlockedUntil = performance.now() + error.retryAfterMs;
        return this.nativeBlockedUntil;
      }
      this.options.logger.info({ err: error }, "the platform stopped streaming the answer; editing a message instead");
      this.nativeFailed();
      return performance.now();
    }
  }

  private async nativeWrite(write: () => Promise<void>): Promise<void> {
    this.options.budget.record(this.destination!.location.channelId);
    await write();
  }

  /** Ends the native stream early and keeps editing its message (or posts, when it has none). */
  private async leaveNative(): Promise<void> {
    const native = this.native!;
    this.nativeState = "off";
    try {
      await native.stop();
    } catch (error) {
      this.options.logger.debug({ err: error }, "could not stop the native stream");
    }
    this.adoptNativeMessage();
  }

  private nativeFailed(): void {
    this.nativeState = "off";
    this.adoptNativeMessage();
  }

  private adoptNativeMessage(): void {
    const message = this.native?.message;
    if (message && this.messages.length === 0) this.messages.push({ message, text: undefined, lastWriteAt: this.nativeLastWriteAt, blockedUntil: 0 });
  }

  private async finishNative(markdown: string): Promise<void> {
    if (this.nativeState !== "on") return;
    const native = this.native!;
    const fits = splitMessage(this.options.surface.render(markdown), this.options.surface.messageLimit).length === 1;
    if (fits && markdown.startsWith(this.appended)) {
      try {
        const rest = markdown.slice(this.appended.length);
        if (rest !== "") {
          await sleepUntil(this.nativeLastWriteAt + this.options.intervalMs, this.nativeBlockedUntil);
          await waitingOutRateLimits(() => native.append(rest));
        }
        this.appended = markdown;
        await waitingOutRateLimits(() => native.stop());
        this.nativeState = "off";
        this.finishedNatively = true;
        return;
      } catch (error) {
        this.options.logger.info({ err: error }, "could not end the native stream; editing its message instead");
      }
    }
    await this.leaveNative();
  }

  /** The native stream holds the whole answer: no message to finish. */
  private finishedNatively = false;

  // --- posted and edited messages ---------------------------------------------------------------

  private async writeMessages(): Promise<number | undefined> {
    if (!hasVisibleText(this.text)) return undefined;
    const parts = this.liveParts(this.text);
    for (const [index, part] of parts.entries()) {
      const shown = this.messages[index];
      if (shown && shown.text === part) continue;
      if (!shown || shown.text === undefined || this.expired(shown)) {
        // First appearances are not held back: the user sees the text as soon as it is there.
        await this.place(index, part, true);
        return performance.now();
      }
      const at = this.pacedAt(shown.lastWriteAt, shown.blockedUntil);
      if (at > performance.now()) return at;
      await this.interimEdit(shown, part);
      return performance.now();
    }
    return undefined;
  }

  /**
   * The parts shown while the answer is written. The last may still grow or move; messages past
   * the layout's own (`maxMessages`, then a file) wait for the end, so none has to be taken back.
   */
  private liveParts(markdown: string): string[] {
    const parts = splitMessage(this.options.surface.render(markdown), this.options.surface.messageLimit);
    const live = this.options.surface.postFile ? Math.max(1, this.options.maxMessages - 1) : Number.POSITIVE_INFINITY;
    return parts.slice(0, live);
  }

  /** When a message may be edited again: its interval, a rate limit, and the channel's budget. */
  private pacedAt(lastWriteAt: number, blockedUntil: number): number {
    const channel = this.destination!.location.channelId;
    return Math.max(lastWriteAt + this.options.intervalMs, blockedUntil, this.options.budget.freeAt(channel));
  }

  private expired(shown: Shown): boolean {
    return shown.message.editableUntil !== undefined && Date.now() > shown.message.editableUntil - EXPIRY_MARGIN_MS;
  }

  /** Posts part `index` (or writes it into the placeholder), replacing a message that can no longer be edited. */
  private async place(index: number, part: string, interim: boolean): Promise<void> {
    const shown = this.messages[index];
    const channel = this.destination!.location.channelId;
    this.options.budget.record(channel);
    const options = { ...this.optionsFor(index), interim };
    if (shown && shown.text === undefined && !this.expired(shown)) {
      try {
        await waitingOutRateLimits(() => this.options.surface.edit(shown.message, part, options));
        Object.assign(shown, { text: part, lastWriteAt: performance.now() });
        this.becameVisible();
        return;
      } catch (error) {
        this.options.logger.warn({ err: error }, "could not write the answer into its message; posting it instead");
      }
    }
    const message = await waitingOutRateLimits(() => this.options.surface.post(this.destination!, part, options));
    this.messages[index] = { message, text: part, lastWriteAt: performance.now(), blockedUntil: 0 };
    this.becameVisible();
  }

  private async interimEdit(shown: Shown, part: string): Promise<void> {
    const index = this.messages.indexOf(shown);
    this.options.budget.record(this.destination!.location.channelId);
    try {
      await this.options.surface.edit(shown.message, part, { ...this.optionsFor(index), interim: true });
      shown.text = part;
      shown.lastWriteAt = performance.now();
    } catch (error) {
      if (error instanceof RateLimitedError) {
        shown.blockedUntil = performance.now() + error.retryAfterMs;
        return;
      }
      // A message that cannot be edited (deleted, an expired token): the text goes on in a new one.
      this.options.logger.warn({ err: error }, "could not update the streamed answer; posting it anew");
      shown.text = undefined;
      shown.message = { id: shown.message.id, editableUntil: 0 };
    }
  }

  private async finishMessages(markdown: string): Promise<void> {
    if (this.finishedNatively) return;
    const { surface, maxMessages, logger } = this.options;
    const layout = answerLayout(surface, markdown, maxMessages);
    for (const [index, part] of layout.parts.entries()) {
      const shown = this.messages[index];
      if (shown?.text === part && !this.expired(shown)) continue;
      if (!shown || shown.text === undefined || this.expired(shown)) {
        await this.place(index, part, false);
        continue;
      }
      // The last edit keeps to the message's interval too (not to the channel's budget: it must happen).
      await sleepUntil(shown.lastWriteAt + this.options.intervalMs, shown.blockedUntil);
      this.options.budget.record(this.destination!.location.channelId);
      try {
        await waitingOutRateLimits(() => surface.edit(shown.message, part, this.optionsFor(index)));
        shown.text = part;
        shown.lastWriteAt = performance.now();
      } catch (error) {
        logger.warn({ err: error }, "could not update the streamed answer's message; posting its final text anew");
        shown.text = undefined;
        shown.message = { id: shown.message.id, editableUntil: 0 };
        await this.place(index, part, false);
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
    if (layout.inFile) await postAnswerFile(surface, this.destination ?? (await this.options.destination()), markdown, layout);
  }

  private optionsFor(index: number): PostOptions {
    return index === 0 ? { kind: "answer", notify: this.options.notify } : { kind: "answer" };
  }

  private becameVisible(): void {
    if (this.visible) return;
    this.visible = true;
    this.options.onVisible();
  }
}

/** Waits until the later of two `performance.now()` times (at most one edit interval, or a rate limit's wait). */
function sleepUntil(...times: number[]): Promise<void> {
  const ms = Math.max(...times) - performance.now();
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
