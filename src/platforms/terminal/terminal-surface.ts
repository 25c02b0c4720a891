import type { ChatSurface, PostedMessage, PostOptions } from "../../contract/surface.js";
import type { TypedApprovals } from "./typed-approvals.js";

/**
 * The terminal as a surface: each message is printed as it comes, steps indented, answers after
 * "bot:". An answer that is streamed grows on its own line: each in-between state prints only
 * what it adds (an inline `code` span or _(aside)_ still open is held back until it closes, so
 * nothing printed has to change); its final state, or the end of the turn (`endLine`), ends the
 * line. An edit of anything else prints the new text again. No threads, no limit on length. A
 * request for approval is answered by typing yes or no.
 */
export function terminalSurface(write: (text: string) => void, approvals: TypedApprovals): ChatSurface & { endLine(): void } {
  let printed = 0;
  /** The answer line still being written: its message and what of it is on screen. */
  let open: { id: string; shown: string } | undefined;
  const endLine = () => {
    if (open) write("\n");
    open = undefined;
  };
  const printAnswer = (id: string, text: string, interim: boolean) => {
    if (open?.id === id && text.startsWith(open.shown)) {
      const next = interim ? settled(text) : text;
      if (next.length > open.shown.length && next.startsWith(open.shown)) write(next.slice(open.shown.length));
      open.shown = next.length > open.shown.length ? next : open.shown;
      if (!interim) endLine();
      return;
    }
    endLine();
    const shown = interim ? settled(text) : text;
    write(`bot: ${shown}`);
    if (interim) open = { id, shown };
    else write("\n");
  };
  const print = (id: string, text: string, options: PostOptions) => {
    if (options.kind === "answer") return printAnswer(id, text, options.interim === true);
    endLine();
    write(`  ${text}\n`);
  };
  return {
    platform: "terminal",
    messageLimit: Number.POSITIVE_INFINITY,
    answerInThread: false,
    holdsQuickSteps: false,
    render: plainText,
    post: async (_to, text, options): Promise<PostedMessage> => {
      const id = String(++printed);
      print(id, text, options);
      return { id };
    },
    edit: async (message, text, options) => print(message.id, text, options),
    startWorking: () => async () => {},
    // A streamed answer whose last in-between state was already the whole answer gets no final write.
    endLine,
    approvals: {
      post: async (_to, text, approvalId) => {
        print(approvalId, `${text.split("\n").join("\n  ")}\n  Type yes to approve or no to deny.`, STEP);
        approvals.asked(approvalId);
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

/** Markdown's inline marks that read as noise in a terminal: `code` spans and _(italic asides)_. */
export function plainText(markdown: string): string {
  return markdown.replace(/(?<!`)`([^`\n]+)`(?!`)/g, "$1").replace(/(^|\s)_\(([^\n]*?)\)_(?=\s|$)/g, "$1($2)");
}

/**
 * What of a rendered answer that is still being written can be printed for good: whole lines,
 * and the last line up to a backtick or "_(" that plainText may still remove once it closes.
 * Line by line, plainText never changes what comes before such a mark. Trailing blanks wait too:
 * a final text is trimmed ("…an answer " broken off ends as "…an answer\n\n⚠️…"), and a blank
 * already printed would no longer be a prefix of it, so the answer would be printed twice.
 */
function settled(rendered: string): string {
  const lastLine = rendered.lastIndexOf("\n") + 1;
  const tail = rendered.slice(lastLine);
  const marks = [tail.indexOf("`"), tail.indexOf("_(")].filter((at) => at !== -1);
  return (marks.length === 0 ? rendered : rendered.slice(0, lastLine + Math.min(...marks))).trimEnd();
}
