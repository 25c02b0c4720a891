import { hasVisibleText } from "../text.js";
import { pacedAt, recordWrite, sleepUntil, type AnswerContext } from "./answer-pacing.js";
import { waitingOutRateLimits } from "./rate-limits.js";
import { splitMessage } from "./split-message.js";
import type { RateLimitedError, NativeStream, PostedMessage, StreamTask } from "../contract/surface.js";
import { hasCode } from "../errors.js";

/**
 * A streamed answer through the platform's own stream (Slack's chat.startStream): text appended
 * at most once per interval, tool steps as tasks. It turns itself off (and the answer goes on in
 * posted messages, starting with the stream's own message) when the platform refuses, when the
 * text is retracted, or when it outgrows one message.
 */
export class NativeAnswer {
  private stream?: NativeStream;
  /** Unknown until the surface was asked; off once it refused or the stream ended early. */
  private state: "unknown" | "on" | "off";
  private readonly tasks: StreamTask[] = [];
  /** Markdown appended to the stream so far. */
  private appended = "";
  private blockedUntil = 0;
  /** The last append (`performance.now()` time): the message posted instead goes on from there. */
  lastWriteAt = 0;
  /** Appends of the answer's text so far. */
  private textWrites = 0;

  constructor(
    private readonly context: AnswerContext,
    available: boolean,
  ) {
    this.state = available ? "unknown" : "off";
  }

  /** The stream is (or may still be) in use. */
  get on(): boolean {
    return this.state !== "off";
  }

  /** The stream's message, once the platform created it. */
  get message(): PostedMessage | undefined {
    return this.stream?.message;
  }

  /** Queues a tool step for the stream; false when it is off. */
  task(task: StreamTask): boolean {
    if (this.state === "off") return false;
    this.tasks.push(task);
    return true;
  }

  /**
   * Does the next write that is due, with `text()` as the answer so far; returns when the one
   * after may happen (undefined: when news comes). May turn the stream off.
   */
  async write(text: () => string): Promise<number | undefined> {
    const { surface } = this.context;
    try {
      if (this.state === "unknown") {
        this.stream = surface.startStream!(this.context.destination!, { notify: this.context.notify });
        this.state = this.stream ? "on" : "off";
        if (!this.stream) return undefined;
      }
      const stream = this.stream!;
      const task = this.tasks.shift();
      if (task) {
        if (stream.task) await this.written(() => stream.task!(task));
        return performance.now();
      }
      const now = text();
      // Text the stream cannot take back (a retraction) or that needs a second message: edit instead.
      if (!now.startsWith(this.appended) || splitMessage(surface.render(now), surface.messageLimit).length > 1) {
        await this.leave();
        return performance.now();
      }
      const rest = now.slice(this.appended.length);
      if (rest === "" || !hasVisibleText(now)) return undefined;
      const at = this.appended === "" ? performance.now() : pacedAt(this.context, this.lastWriteAt, this.blockedUntil);
      if (at > performance.now()) return at;
      await this.written(() => stream.append(rest));
      this.appended = now;
      this.lastWriteAt = performance.now();
      this.textWrites++;
      this.context.becameVisible();
      return now === text() ? undefined : pacedAt(this.context, this.lastWriteAt, this.blockedUntil);
    } catch (error) {
      if (hasCode<RateLimitedError>(error, "platform_rate_limited")) {
        this.blockedUntil = performance.now() + error.retryAfterMs;
        return this.blockedUntil;
      }
      this.context.logger.info({ err: error }, "the platform stopped streaming the answer; editing a message instead");
      this.state = "off";
      return performance.now();
    }
  }

  /**
   * Ends the stream with `markdown` as the whole answer (and the turn's 👍 / 👎 under it, given
   * `feedback`). True when the stream holds it; false when
   * it is off, or it had to stop short (then the answer goes on in posted messages).
   */
  async finish(markdown: string, feedback?: string): Promise<boolean> {
    if (this.state !== "on") return false;
    const stream = this.stream!;
    const { surface } = this.context;
    const fits = splitMessage(surface.render(markdown), surface.messageLimit).length === 1;
    if (fits && markdown.startsWith(this.appended)) {
      try {
        const rest = markdown.slice(this.appended.length);
        // The rest keeps to the interval where the stream was appended to on the way; after a single
        // append, the whole text came within the first interval and the end follows at once.
        await sleepUntil(rest !== "" && this.textWrites > 1 ? this.lastWriteAt + this.context.intervalMs : 0, this.blockedUntil);
        if (stream.message) {
          // The rest goes with the end, in one call.
          await waitingOutRateLimits(() => stream.stop(rest, { feedback }));
        } else {
          // Nothing started the stream's message yet (no text, no task): the rest does.
          if (rest !== "") await waitingOutRateLimits(() => stream.append(rest));
          await waitingOutRateLimits(() => stream.stop(undefined, { feedback }));
        }
        this.appended = markdown;
        this.state = "off";
        return true;
      } catch (error) {
        this.context.logger.info({ err: error }, "could not end the native stream; editing its message instead");
      }
    }
    await this.leave();
    return false;
  }

  private async written(write: () => Promise<void>): Promise<void> {
    recordWrite(this.context);
    await write();
  }

  /** Ends the stream early; its message (if any) is what the answer goes on editing. */
  private async leave(): Promise<void> {
    this.state = "off";
    try {
      await this.stream!.stop();
    } catch (error) {
      this.context.logger.debug({ err: error }, "could not stop the native stream");
    }
  }
}
