import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { createInterface, type Interface } from "node:readline";
import { commandQuestion, type Actor, type AttachmentDescriptor } from "../../contract/inbound.js";
import type { PlatformLink } from "../../contract/link.js";
import type { PlatformAdapter, PlatformServices } from "../../contract/platform.js";
import { burstWriter } from "./burst-writer.js";
import { describeLocalFile, localFiles } from "./local-files.js";
import { terminalSurface, type StyleNow } from "./terminal-surface.js";
import { terminalText } from "./terminal-text.js";
import { LineQueue, TypedApprovals } from "./typed-approvals.js";

const PLATFORM = "terminal";
/** The longest a piped terminal holds back a step's line for the answer to share its write (see burstWriter). */
const PIPE_HOLD_MS = 50;
const PLACE = { platform: PLATFORM, workspaceId: "local", channelId: "terminal", isDm: false } as const;
const YES = /^(y|yes)$/i;
/** A second Ctrl-C within this long of the one that stopped a turn quits. */
const QUIT_PRESS_MS = 1_000;
const NO = /^(n|no)$/i;

/** The terminal's own command, for what a chat app's attach button does. */
const ATTACH = /^\/attach(?:\s+(.*))?$/;
const ATTACH_HELP = "`/attach PATH` — attaches a local file (an image, a log, code) to your next question";

/**
 * The terminal: each line is a question, steps print as they happen, then the answer. Lines
 * starting with "/" are commands (/tools, /tools enable NAME, /memory clear, /help, ...). A tool
 * call that needs approval waits for a typed yes or no. The person at the terminal is its
 * operator: an admin, never rate limited. `/attach PATH` attaches a local file to the next
 * question, read within the same limits as a chat platform's files (the operator may read their
 * own files anyway). `finished` resolves at the end of input, once the last question has been
 * answered (or, if a request for approval still waits, at once: nobody is left to answer it).
 */
export class TerminalAdapter implements PlatformAdapter {
  readonly name = PLATFORM;
  readonly interactive = true;
  readonly finished: Promise<void>;
  private finish!: () => void;
  private readonly approvals = new TypedApprovals();
  private readonly actor = operator();
  /** Files /attach added for the next question. */
  private readonly attached: AttachmentDescriptor[] = [];
  private write: (text: string) => void = () => {};
  private flush = () => {};
  private endAnswer = () => {};
  /** A question is being answered (Ctrl-C stops it rather than quitting). */
  private answering = false;
  /** When Ctrl-C last stopped a turn (a second press soon after quits). */
  private stoppedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly services: PlatformServices<object>) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
  }

  async start(): Promise<void> {
    const { input, output } = this.services.streams;
    const tty = output as { isTTY?: boolean; columns?: number };
    // Styled and wrapped where a person reads it (both ends a TTY), plain text when piped.
    const style: StyleNow = () =>
      (input as { isTTY?: boolean }).isTTY === true && tty.isTTY === true ? { styled: true, width: tty.columns || 80 } : { styled: false };
    // Held back up to PIPE_HOLD_MS when a program reads the output, not a person (see burstWriter).
    const { write, flush } = burstWriter(output, tty.isTTY === true ? 0 : PIPE_HOLD_MS);
    this.flush = flush;
    const surface = terminalSurface(write, this.approvals, style, flush);
    this.write = (text: string) => {
      surface.endLine();
      write(`${terminalText(text, style())}\n`);
      flush();
    };
    this.endAnswer = () => surface.endLine();
    const link = this.services.connect({
      surface,
      allowDms: false,
      hasRoles: false,
      soleOperator: true,
      // Read from this process's own input: a line comes once.
      deliversOnce: true,
      commandName: (group) => `/${group}`,
      roleNames: { admin: "", moderator: "" },
      content: localFiles,
    });
    void this.converse(link).finally(() => this.finish());
  }

  async stop(): Promise<void> {
    this.flush();
    this.finish();
  }

  health(): { connected: boolean; detail?: string } {
    return { connected: true, detail: "stdin" };
  }

  private async converse(link: PlatformLink): Promise<void> {
    const { input, output } = this.services.streams;
    const interactive = (input as { isTTY?: boolean }).isTTY === true;
    const readline = createInterface({ input, output: interactive ? output : undefined, terminal: interactive });
    const lines = new LineQueue(readline);
    let closed = false;
    readline.once("close", () => (closed = true));
    // A prompt after the input closed would resume it (and hold the process open).
    const prompt = () => interactive && !closed && readline.prompt();
    /** Lines typed while an answer was being written: shown again (after the prompt) as their turn comes. */
    const typedMeanwhile: string[] = [];
    if (interactive) {
      // In raw mode Ctrl-C is a keypress, not a signal: readline reports it here.
      readline.on("SIGINT", () => this.interrupted(link, readline));
      this.holdEcho(readline, typedMeanwhile);
      this.write("Talk to the bot. Commands: /help lists them. Ctrl-C stops an answer, Ctrl-D quits.");
      readline.setPrompt("you> ");
    }
    prompt();
    for (;;) {
      if ((await lines.peek()) === undefined) return;
      const line = lines.take()!;
      if (typedMeanwhile[0] === line) {
        typedMeanwhile.shift();
        output.write(`${line}\n`);
      }
      const text = line.trim();
      const attach = ATTACH.exec(text);
      if (attach) {
        this.write(await attachFile(attach[1]?.trim(), this.attached));
      } else if (text.startsWith("/")) {
        const command = link.parseCommand(text);
        const help = command?.kind === "help" ? `\n${ATTACH_HELP}` : "";
        this.write(command ? `${(await link.runCommand(command, { ...PLACE, actor: this.actor })).text}${help}` : `Unknown command "${text}". Try /help.`);
      } else if (text !== "") {
        this.answering = true;
        const ended = await this.ask(link, text, lines).finally(() => (this.answering = false));
        this.endAnswer();
        if (!ended) return;
      }
      prompt();
    }
  }

  /**
   * While an answer is being written (and no request for approval waits for a typed yes or no),
   * what is typed is not echoed: it would land in the middle of the answer. readline still reads
   * it (a question typed meanwhile is queued, and shown again when its turn comes), and redraws a
   * line typed halfway with the next prompt. readline has no public switch for its echo; its
   * `_writeToOutput` is the hook password prompts use, present on Node 20 to 24. Without it the
   * echo simply stays.
   */
  private holdEcho(readline: Interface, typedMeanwhile: string[]): void {
    const holding = () => this.answering && this.approvals.current === undefined;
    readline.on("line", (line) => holding() && typedMeanwhile.push(line));
    const echo = readline as unknown as { _writeToOutput?: (text: string) => void };
    const write = echo._writeToOutput?.bind(readline);
    if (!write) return;
    echo._writeToOutput = (text) => {
      if (!holding()) write(text);
    };
  }

  /**
   * Ctrl-C: stops the running turn at once and keeps the session; at the prompt, or pressed again
   * within a second, quits as the end of input does (the bot's normal shutdown).
   */
  private interrupted(link: PlatformLink, readline: Interface): void {
    const now = performance.now();
    if (this.answering && now - this.stoppedAt > QUIT_PRESS_MS) {
      this.stoppedAt = now;
      if (link.stop(PLACE)) return;
    }
    this.services.streams.output.write("\n");
    readline.close();
    this.finish();
  }

  /**
   * Asks a question and waits for its answer, reading a typed yes or no for each request for
   * approval it shows meanwhile. False when the input ended while a request still waited.
   */
  private async ask(link: PlatformLink, text: string, lines: LineQueue): Promise<boolean> {
    let answered = false;
    const turn = link
      .receive(commandQuestion({ ...PLACE, actor: this.actor }, { messageId: randomUUID(), text, attachments: this.attached.splice(0) }))
      .finally(() => (answered = true));
    const moved = Symbol("moved on");
    while (!answered) {
      const waiting = this.approvals.current;
      const changed = this.approvals.changed().then(() => moved);
      if (waiting === undefined) {
        await Promise.race([turn, changed]);
        continue;
      }
      const line = await Promise.race([lines.peek(), changed, turn.then(() => moved)]);
      if (typeof line === "symbol") continue;
      if (line === undefined) return false;
      lines.take();
      await this.answer(link, waiting, line.trim());
    }
    return true;
  }

  private async answer(link: PlatformLink, approvalId: string, typed: string): Promise<void> {
    if (!YES.test(typed) && !NO.test(typed)) {
      this.write("  Please type yes or no.");
      return;
    }
    const answer = await link.decideApproval({
      platform: PLATFORM,
      workspaceId: PLACE.workspaceId,
      approvalId,
      decision: YES.test(typed) ? "approve" : "deny",
      actor: this.actor,
    });
    if (answer.kind === "decided") this.approvals.closed(approvalId);
    this.write(answer.text.replace(/^/gm, "  "));
  }
}

export const create = (services: PlatformServices<object>) => new TerminalAdapter(services);

/** Adds a file for the next question; says what became of it. */
async function attachFile(path: string | undefined, attached: AttachmentDescriptor[]): Promise<string> {
  if (!path) return `Usage: ${ATTACH_HELP}.`;
  try {
    const file = await describeLocalFile(path);
    attached.push(file);
    return `Attached ${file.name}; it goes with your next question.`;
  } catch (error) {
    return `Cannot attach: ${(error as Error).message}.`;
  }
}

function operator(): Actor {
  let name = "you";
  try {
    name = userInfo().username;
  } catch {
    // no user database entry (some containers): keep "you"
  }
  return { id: name, name, role: "admin", isBot: false, operator: true };
}
