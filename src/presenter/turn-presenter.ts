import type { Logger } from "../log.js";
import type { Location } from "../contract/inbound.js";
import type { ApprovalOutcome, ApprovalPrompt } from "../contract/approvals.js";
import type { AnswerTextEvent, StepEvent, TurnReply, TurnView } from "../contract/turn-view.js";
import { cleanAnswer, hasVisibleText } from "../text.js";
import { AnswerStream } from "./answer-stream.js";
import { AnswerWriter } from "./answer-writer.js";
import { approvalOutcomeText, approvalRequestText } from "./approval-text.js";
import type { ChannelBudget } from "./channel-budget.js";
import { waitingOutRateLimits } from "./rate-limits.js";
import { confinedSurface } from "./confined-surface.js";
import { formatStepEnded, formatStepLine, formatStepStarted, stepTask } from "./step-format.js";
import { isConfined, samePlace, type ChatSurface, type Destination, type PostedMessage } from "../contract/surface.js";
import { PRESENTER_TEXT } from "./texts.js";

/** The message a turn answers, as the presenter needs it. */
export interface Question {
  location: Location;
  messageId: string;
  isDm: boolean;
  askerId: string;
  /** The question's text, for the name of a thread opened on it. */
  text: string;
  /** A message already posted for the answer (a slash command's "thinking…"), edited with its first part. */
  placeholder?: PostedMessage;
}

export interface PresenterOptions {
  surface: ChatSurface;
  question: Question;
  /** STEP_START_DELAY_MS, for surfaces that hold quick steps back (and the working indicator). */
  stepStartDelayMs: number;
  /** Answers longer than this many messages send the rest as a file. */
  maxAnswerMessages: number;
  logger: Logger;
  /** Told when the presenter opened a thread, so the core can remember it as the bot's. */
  onThreadOpened(thread: Location): void;
  /** Set to show the answer while it arrives (STREAM_ANSWERS): the edit interval and the platform's channel budget. */
  streaming?: { intervalMs: number; budget: ChannelBudget };
}

/**
 * Renders one turn on any platform, the same way everywhere: a working indicator while it runs,
 * each tool step (held back while quick, then posted once with its result, or posted and edited),
 * then the answer split at the platform's limit, or a refusal or failure. The answer comes after
 * the steps where both share a place (Slack's thread, a question asked in a thread, the terminal);
 * where the steps have a thread of their own (Discord), it is posted as soon as it is ready, and the
 * turn still ends with every step shown. Never throws: a platform that refuses is logged and the
 * turn goes on.
 */
export class TurnPresenter implements TurnView {
  private readonly surface: ChatSurface;
  private readonly question: Question;
  private chain: Promise<void> = Promise.resolve();
  private readonly heldStarts = new Map<number, NodeJS.Timeout>();
  private readonly posted = new Map<number, PostedMessage>();
  private stopWorking?: () => Promise<void>;
  /** The working indicator's timer, while it waits for the step delay. */
  private workingSoon?: NodeJS.Timeout;
  private thread?: Promise<Location | undefined>;
  /** The platform refused to open a thread (a missing permission): steps then reply to the question. */
  private threadRefused = false;
  private stepPlace?: Promise<Destination>;
  private answer?: AnswerStream;
  /** Requests for approval this turn posted, by id (undefined where posting failed). */
  private readonly approvalMessages = new Map<string, Promise<PostedMessage | undefined>>();
  /** Once the reply is being delivered: rate limits are waited out only while the wait ends before then (performance.now() time). */
  private deliverBy = Number.POSITIVE_INFINITY;
  private readonly deadline = () => this.deliverBy;
  /** A confined answer (see ConfinedReply): its steps, listed above the answer instead of posted. */
  private readonly confined: boolean;
  private readonly stepLines = new Map<number, string>();
  private readonly maxMessages: number;

  constructor(private readonly options: PresenterOptions) {
    const { placeholder } = options.question;
    this.confined = isConfined(placeholder);
    this.surface = isConfined(placeholder) ? confinedSurface(options.surface, placeholder) : options.surface;
    this.maxMessages = isConfined(placeholder) ? placeholder.confined.maxFollowUps + 1 : options.maxAnswerMessages;
    this.question = options.question;
  }

  /**
   * Called when the turn is queued: the working indicator, and the answer's thread where answers go
   * in threads. Like a quick step, the indicator waits for the step delay on chat platforms: an
   * answer that comes sooner costs no typing call, or no reaction added and taken back (Slack's
   * reactions are among its most rate-limited calls).
   */
  begin(): void {
    const delay = this.surface.holdsQuickSteps ? this.options.stepStartDelayMs : 0;
    if (delay > 0) this.workingSoon = setTimeout(() => this.startWorking(), delay);
    else this.startWorking();
    if (this.answersInNewThread()) this.thread = this.openThread();
  }

  private startWorking(): void {
    this.workingSoon = undefined;
    try {
      this.stopWorking = this.surface.startWorking({ location: this.question.location, messageId: this.question.messageId, isDm: this.question.isDm });
    } catch (error) {
      this.options.logger.debug({ err: error }, "could not show the working indicator");
    }
  }

  step(event: StepEvent): void {
    if (this.confined) {
      if (event.type !== "tool_started") this.stepLines.set(event.seq, formatStepLine(event));
      return;
    }
    if (this.options.streaming && this.surface.startStream) this.answerStream().task(stepTask(event));
    const delay = this.surface.holdsQuickSteps ? this.options.stepStartDelayMs : 0;
    if (event.type === "tool_started" && delay > 0) {
      const timer = setTimeout(() => {
        this.heldStarts.delete(event.seq);
        this.enqueue((place) => this.showStep(place, event));
      }, delay);
      this.heldStarts.set(event.seq, timer);
      return;
    }
    if (event.type !== "tool_started") {
      clearTimeout(this.heldStarts.get(event.seq));
      this.heldStarts.delete(event.seq);
    }
    this.enqueue((place) => this.showStep(place, event));
  }

  answerText(event: AnswerTextEvent): void {
    if (!this.options.streaming) return;
    if (event.type === "delta") this.answerStream().push(event.text);
    else this.answer?.retract();
  }

  answerDone(): void {
    this.answer?.end();
  }

  /**
   * A request for approval goes where the steps go, after the steps shown before it. False when
   * the platform has no approval controls or refused the post: nobody could press anything.
   */
  async askApproval(prompt: ApprovalPrompt): Promise<boolean> {
    const controls = this.surface.approvals;
    if (!controls) return false;
    const posted = new Promise<PostedMessage | undefined>((resolve) =>
      this.enqueue(async (place) => {
        try {
          resolve(await waitingOutRateLimits(() => controls.post(place, this.surface.render(approvalRequestText(prompt)), prompt.id), this.deadline));
        } catch (error) {
          this.options.logger.warn({ err: error }, "could not post a request for approval");
          resolve(undefined);
        }
      }),
    );
    this.approvalMessages.set(prompt.id, posted);
    return (await posted) !== undefined;
  }

  /** A request nobody decided: its controls make way for how it ended. Not queued behind steps: it only edits. */
  async closeApproval(prompt: ApprovalPrompt, outcome: ApprovalOutcome): Promise<void> {
    const posted = await this.approvalMessages.get(prompt.id);
    this.approvalMessages.delete(prompt.id);
    const controls = this.surface.approvals;
    if (!posted || !controls) return;
    await this.attempt("end a request for approval", () => controls.settle(posted, this.surface.render(approvalOutcomeText(prompt, outcome))));
  }

  /** The thread this turn opened on its question, if any, once it is known. */
  whereAsked(): { location: Location; messageId: string; isDm?: boolean; askerId: string } {
    const { location, messageId, isDm, askerId } = this.question;
    return { location, messageId, isDm, askerId };
  }

  openedThread(): Promise<Location | undefined> {
    // A direct message is one conversation, threads and all.
    if (this.question.isDm) return Promise.resolve(undefined);
    return this.thread ?? Promise.resolve(undefined);
  }

  /** Every step shown; a start still held back is dropped (its step never ended). */
  private async stepsShown(): Promise<void> {
    for (const timer of this.heldStarts.values()) clearTimeout(timer);
    this.heldStarts.clear();
    await this.chain;
  }

  /**
   * Shows the reply, within DELIVERY_TIMEOUT_MS: a platform that keeps the bot waiting (a rate
   * limit of an hour, a request that hangs) costs the user this answer, never the conversation's
   * next turn, which waits for this one to end. A reply not shown in time is logged as such.
   */
  async finish(reply: TurnReply): Promise<void> {
    this.deliverBy = performance.now() + DELIVERY_TIMEOUT_MS;
    const delivered = this.deliver(reply);
    // Past the time limit nobody awaits the delivery any more: its late failure must not go unhandled.
    delivered.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timed out">((resolve) => {
      timer = setTimeout(() => resolve("timed out"), DELIVERY_TIMEOUT_MS);
    });
    try {
      if ((await Promise.race([delivered, timedOut])) === "timed out") {
        this.options.logger.warn(
          { turnId: reply.turnId, status: reply.status, limitMs: DELIVERY_TIMEOUT_MS },
          "could not deliver the reply in time; its asker may not see it",
        );
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async deliver(reply: TurnReply): Promise<void> {
    const stepsShown = this.stepsShown();
    try {
      await this.stepsBeforeAnswer(stepsShown);
      await this.showReply(reply);
    } finally {
      await this.clearWorking();
    }
    // Where the answer did not wait for them, the turn still ends with every step shown.
    await stepsShown;
  }

  /** A short message of the bot's where the answer went, after it (the first summary's note); never throws. */
  async note(text: string): Promise<void> {
    const { location } = await this.answerDestination();
    const shown = this.surface.render(text);
    await this.attempt("post a note", () => waitingOutRateLimits(() => this.surface.post({ location }, shown, { kind: "answer" })));
  }

  /**
   * Resolves once the answer may be shown: at once where no step was shown or the steps go to
   * another place than the answer; else once `shown` (the steps so far) are on screen.
   */
  private async stepsBeforeAnswer(shown: Promise<void> = this.chain): Promise<void> {
    if (!this.stepPlace) return;
    const [steps, answer] = await Promise.all([this.stepPlace, this.answerDestination()]);
    if (samePlace(steps.location, answer.location)) await shown;
  }

  private async showReply(reply: TurnReply): Promise<void> {
    if (reply.status === "ignored") {
      if (this.question.placeholder) await this.attempt("take back the placeholder", () => this.surface.remove?.(this.question.placeholder!));
      return;
    }
    const text = reply.status === "failed" ? `⚠️ ${reply.text}` : reply.text;
    const shown = !hasVisibleText(text) ? PRESENTER_TEXT.emptyAnswer : cleanAnswer(text);
    // 👍 / 👎 go under answers only: not under a failure or a refusal.
    const feedback = reply.status === "answered" && this.surface.offersFeedback ? reply.turnId : undefined;
    if (this.answer && (await this.answer.finish(this.withSteps(this.streamedEnd(reply, shown)), feedback))) return;
    const writer = new AnswerWriter({
      surface: this.surface,
      destination: await this.answerDestination(),
      placeholder: this.question.placeholder,
      notify: this.question.askerId,
      maxMessages: this.maxMessages,
      feedback,
      deadline: this.deadline,
    });
    try {
      await writer.write(this.withSteps(shown));
    } catch (error) {
      this.options.logger.warn({ err: error, turnId: reply.turnId, status: reply.status }, "could not post the answer; its asker did not see it");
    }
  }

  /** A confined answer starts with the list of its steps, in their order. */
  private withSteps(markdown: string): string {
    if (this.stepLines.size === 0) return markdown;
    const lines = [...this.stepLines.entries()].sort(([a], [b]) => a - b).map(([, line]) => line);
    return `${lines.join("\n")}\n\n${markdown}`;
  }

  /** A failed turn keeps the part of the answer that was shown, and says that it stopped there and why. */
  private streamedEnd(reply: TurnReply, shown: string): string {
    const partial = cleanAnswer(this.answer!.partial);
    if (reply.status !== "failed" || !hasVisibleText(partial)) return shown;
    return `${partial}\n\n${PRESENTER_TEXT.stoppedHere(reply.text)}`;
  }

  private answerStream(): AnswerStream {
    this.answer ??= new AnswerStream({
      surface: this.surface,
      destination: () => this.answerDestination(),
      placeholder: this.question.placeholder,
      notify: this.question.askerId,
      maxMessages: this.maxMessages,
      intervalMs: this.options.streaming!.intervalMs,
      budget: this.options.streaming!.budget,
      logger: this.options.logger,
      before: () => this.stepsBeforeAnswer(),
      // Typing or a reaction next to an answer that visibly grows says nothing more.
      onVisible: () => void this.clearWorking(),
    });
    return this.answer;
  }

  /** Queues a write where the steps go, after those queued before it. */
  private enqueue(task: (place: Destination) => Promise<void>): void {
    // Settled as the first step is queued, so that the answer can tell whether it shares the place.
    const place = (this.stepPlace ??= this.openStepPlace());
    this.chain = this.chain.then(() => place).then(task);
  }

  private async showStep(place: Destination, event: StepEvent): Promise<void> {
    await this.attempt("show a tool step", async () => {
      this.options.streaming?.budget.record(place.location.channelId);
      if (event.type === "tool_started") {
        const text = this.surface.render(formatStepStarted(event));
        this.posted.set(event.seq, await waitingOutRateLimits(() => this.surface.post(place, text, STEP), this.deadline));
        return;
      }
      const text = this.surface.render(formatStepEnded(event));
      const started = this.posted.get(event.seq);
      if (started && (await this.edited(started, text))) return;
      await waitingOutRateLimits(() => this.surface.post(place, text, STEP), this.deadline);
    });
  }

  /** Edits a step in place; false (after logging why) when the platform refused, so the result is posted anew. */
  private async edited(message: PostedMessage, text: string): Promise<boolean> {
    try {
      await waitingOutRateLimits(() => this.surface.edit(message, text, STEP), this.deadline);
      return true;
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not update a tool step; posting its result instead");
      return false;
    }
  }

  /**
   * Steps go in the question's thread; a top-level question gets a thread of its own where the
   * platform has them, else the steps go next to it (as replies to it when a thread was refused).
   * Never rejects (a refused thread is logged).
   */
  private async openStepPlace(): Promise<Destination> {
    const { location, messageId } = this.question;
    if (isInThread(location)) return { location };
    const thread = await (this.thread ??= this.openThread());
    if (thread) return { location: thread };
    return this.threadRefused ? { location, replyTo: messageId } : { location };
  }

  private async openThread(): Promise<Location | undefined> {
    if (!this.surface.openThread) return undefined;
    try {
      const on = { location: this.question.location, messageId: this.question.messageId };
      const thread = await waitingOutRateLimits(() => this.surface.openThread!(on, threadTitle(this.question.text)), this.deadline);
      if (thread) this.options.onThreadOpened(thread);
      return thread;
    } catch (error) {
      this.threadRefused = true;
      this.options.logger.warn({ err: error }, "could not open a thread for the tool steps; posting them as replies instead");
      return undefined;
    }
  }

  private answersInNewThread(): boolean {
    return this.surface.answerInThread && !isInThread(this.question.location) && !this.question.isDm;
  }

  private async answerDestination(): Promise<Destination> {
    const { location, messageId, isDm } = this.question;
    if (!this.surface.answerInThread || (isDm && !isInThread(location))) return { location, replyTo: messageId };
    if (isInThread(location)) return { location };
    const thread = await (this.thread ??= this.openThread());
    return thread ? { location: thread } : { location, replyTo: messageId };
  }

  private async clearWorking(): Promise<void> {
    clearTimeout(this.workingSoon);
    this.workingSoon = undefined;
    const stop = this.stopWorking;
    this.stopWorking = undefined;
    if (stop) await this.attempt("clear the working indicator", stop);
  }

  private async attempt(what: string, action: () => Promise<unknown> | undefined): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.options.logger.warn({ err: error }, `could not ${what}`);
    }
  }
}

const STEP = { kind: "step" } as const;

/**
 * The longest the delivery of a reply takes: the answer, the steps still queued, the working
 * indicator cleared. Within the minute a turn's place in line allows for its posting (see app.ts).
 */
const DELIVERY_TIMEOUT_MS = 45_000;

const isInThread = (location: Location) => location.threadId !== undefined || location.parentChannelId !== undefined;

/** Platforms cap thread names (Discord: 100 characters); the first line of the question, cut at a word. */
export function threadTitle(question: string, max = 100): string {
  const line =
    question
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.replace(/\s+/g, " ")
      .trim() ?? "";
  if (line === "") return "Tool steps";
  if (line.length <= max) return line;
  const room = line.slice(0, max - 1);
  const space = room.lastIndexOf(" ");
  return `${space > max / 2 ? room.slice(0, space) : room}…`;
}
