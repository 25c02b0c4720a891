import type { ChatSurface, PostedMessage, PostOptions } from "../../contract/surface.js";
import { settledMarkdown, terminalText, type TerminalStyle } from "./terminal-text.js";
import type { TypedApprovals } from "./typed-approvals.js";

/** How the terminal shows text now: styled and wrapped on a TTY (its width read each time), plain when piped. */
export type StyleNow = () => Pick<TerminalStyle, "styled" | "width">;

const PLAIN: StyleNow = () => ({ styled: false });
const ANSWER = "bot: ";
const CLEAR_LINE = "\r\x1b[2K";

/**
 * The terminal as a surface: each message is printed as it comes, steps indented, answers after
 * "bot:". The core's Markdown is rendered here (terminalText), as the terminal shows it. An answer
 * that is streamed grows on its own line: each in-between state prints only what it adds (what of
 * it renders for good: settledMarkdown), its final state, or the end of the turn (`endLine`), ends
 * the line. An edit of anything else prints the new text again. No threads, no limit on length. A
 * request for approval is answered by typing yes or no. On a TTY a dim "thinking…" line stands
 * while the bot works and nothing else shows, and goes when the next text comes.
 */
export function terminalSurface(
  write: (text: string) => void,
  approvals: TypedApprovals,
  style: StyleNow = PLAIN,
  /** Sends what the writer holds back (burstWriter): once an answer ended, or the bot waits for typing. */
  flush: () => void = () => {},
): ChatSurface & { endLine(): void; readonly answering: boolean } {
  let printed = 0;
  /** The answer line still being written: its message, the Markdown printed of it and how it was shown. */
  let open: { id: string; source: string; shown: string; latest: string } | undefined;
  let working = false;
  let thinking = false;
  const out = (text: string) => {
    if (thinking) write(CLEAR_LINE);
    thinking = false;
    write(text);
  };
  const showThinking = () => {
    if (!working || thinking || open || approvals.current !== undefined || !style().styled) return;
    write("\x1b[2m  thinking…\x1b[22m");
    thinking = true;
  };
  const rendered = (markdown: string) => terminalText(markdown, { ...style(), firstLineTaken: ANSWER.length });
  /** Prints what of the open answer's Markdown `source` adds to what it shows. */
  const grow = (source: string) => {
    if (!open || source.length <= open.source.length) return;
    const next = rendered(source);
    if (next.startsWith(open.shown)) out(next.slice(open.shown.length));
    else out(`\n${ANSWER}${next}`);
    open.source = source;
    open.shown = next;
  };
  // The last in-between state may have been the whole answer (then no final state comes): what it held back is printed now.
  const endLine = () => {
    if (!open) return;
    if (open.latest.startsWith(open.source)) grow(open.latest.trimEnd());
    out("\n");
    open = undefined;
    flush();
  };
  const printAnswer = (id: string, markdown: string, interim: boolean) => {
    if (open?.id === id && markdown.startsWith(open.source)) {
      open.latest = markdown;
      grow(interim ? settledMarkdown(markdown) : markdown);
      if (!interim) endLine();
      return;
    }
    endLine();
    const source = interim ? settledMarkdown(markdown) : markdown;
    const shown = rendered(source);
    out(`${ANSWER}${shown}`);
    if (interim) open = { id, source, shown, latest: markdown };
    else {
      out("\n");
      flush();
    }
  };
  const print = (id: string, text: string, options: PostOptions) => {
    if (options.kind === "answer") return printAnswer(id, text, options.interim === true);
    endLine();
    out(`${terminalText(text, { ...style(), indent: "  " })}\n`);
    showThinking();
  };
  return {
    platform: "terminal",
    messageLimit: Number.POSITIVE_INFINITY,
    answerInThread: false,
    holdsQuickSteps: false,
    // Rendered as it is printed (above), for the terminal as it is then.
    render: (markdown) => markdown,
    post: async (_to, text, options): Promise<PostedMessage> => {
      const id = String(++printed);
      print(id, text, options);
      return { id };
    },
    edit: async (message, text, options) => print(message.id, text, options),
    startWorking: () => {
      working = true;
      showThinking();
      return async () => {
        working = false;
        if (thinking) write(CLEAR_LINE);
        thinking = false;
      };
    },
    // A streamed answer whose last in-between state was already the whole answer gets no final write.
    endLine,
    get answering() {
      return working;
    },
    approvals: {
      post: async (_to, text, approvalId) => {
        // Asked first: no "thinking…" line under a question waiting for a typed answer.
        approvals.asked(approvalId);
        print(approvalId, `${text}\nType yes to approve or no to deny.`, STEP);
        flush();
        return { id: approvalId };
      },
      settle: async (message, text) => {
        approvals.closed(message.id);
        print(message.id, text, STEP);
      },
    },
  };
}

const STEP = { kind: "step" } as const;
