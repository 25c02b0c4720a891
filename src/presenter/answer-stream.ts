import type { Logger } from "../log.js";
import type { AnswerContext } from "./answer-pacing.js";
import type { ChannelBudget } from "./channel-budget.js";
import { NativeAnswer } from "./native-answer.js";
import { PostedAnswer } from "./posted-answer.js";
import type { ChatSurface, Destination, PostedMessage, StreamTask } from "../contract/surface.js";

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
  /** Resolves once the answer may be shown (after the steps shown so far, where they share its place). */
  before: () => Promise<void>;
  /** Called once, when the first text of the answer is visible. */
  onVisible: () => void;
}

/**
 * Shows an answer while the model writes it, through the platform's native stream when it has
 * one (NativeAnswer), else by posting a message and editing it (PostedAnswer). This part keeps
 * the text and decides when to write: text that arrives while a write is under way, or while the
 * pacing holds writes back, goes in the next one. `finish` leaves exactly the messages the answer
 * would have had without streaming; nothing is written once it has returned. Never throws: a
 * platform that refuses is logged.
 */
export class AnswerStream {
  private text = "";
  private readonly context: AnswerContext;
  private readonly native: NativeAnswer;
  private readonly posted: PostedAnswer;
  private pump?: Promise<void>;
  private closed = false;
  /** The answer is whole (see `end`): nothing more is written before `finish`. */
  private ended = false;
  private visible = false;
  private wake?: () => void;
  private timer?: NodeJS.Timeout;
  private waitingForNews = false;

  constructor(private readonly options: AnswerStreamOptions) {
    const { surface, notify, maxMessages, intervalMs, budget, logger } = options;
    this.context = { surface, notify, maxMessages, intervalMs, budget, logger, becameVisible: () => this.becameVisible() };
    this.native = new NativeAnswer(this.context, surface.startStream !== undefined && !options.placeholder);
    this.posted = new PostedAnswer(this.context, options.placeholder);
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
    if (this.closed || !this.native.task(task)) return;
    this.kick();
  }

  /**
   * The model's answer is whole and is being stored; `finish` comes next with it. Nothing more is
   * written until then, so an answer that came in one read is posted once, whole, by `finish`
   * (and not streamed and then edited while its closing commits).
   */
  end(): void {
    this.ended = true;
  }

  /**
   * Ends the stream with `markdown` as the answer and the messages in its final layout, the turn's
   * 👍 / 👎 (`feedback`) under the last one. Resolves
   * false when nothing was shown yet (the caller then posts the answer the ordinary way).
   */
  async finish(markdown: string, feedback?: string): Promise<boolean> {
    this.closed = true;
    this.wakeNow();
    await this.pump;
    if (!this.visible && this.posted.nothingShown && !this.native.message) return false;
    try {
      if (await this.native.finish(markdown, feedback)) return true;
      this.posted.adopt(this.native.message, this.native.lastWriteAt);
      this.context.destination ??= await this.options.destination();
      await this.posted.finish(markdown, feedback);
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
    if (this.closed || this.ended) return;
    try {
      await this.options.before();
      this.context.destination = await this.options.destination();
      while (!this.closed && !this.ended) {
        const next = await this.writeOnce();
        if (this.closed || this.ended) break;
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
    if (this.native.on) {
      const next = await this.native.write(() => this.text);
      if (this.native.on) return next;
      // The native stream ended early: its message (if any) goes on as a posted one.
      this.posted.adopt(this.native.message, this.native.lastWriteAt);
    }
    return this.posted.write(this.text);
  }

  private becameVisible(): void {
    if (this.visible) return;
    this.visible = true;
    this.options.onVisible();
  }
}
