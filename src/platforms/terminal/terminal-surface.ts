import type { ChatSurface, PostedMessage } from "../../presenter/surface.js";
import type { TypedApprovals } from "./typed-approvals.js";

/**
 * The terminal as a surface: each message is printed as it comes (an edit prints the new text
 * again), steps indented, answers after "bot:". No threads, no limit on length. A request for
 * approval is answered by typing yes or no.
 */
export function terminalSurface(write: (line: string) => void, approvals: TypedApprovals): ChatSurface {
  let printed = 0;
  const print = (text: string, kind: "step" | "answer"): PostedMessage => {
    write(kind === "step" ? `  ${text}` : `bot: ${text}`);
    return { id: String(++printed) };
  };
  return {
    platform: "terminal",
    messageLimit: Number.POSITIVE_INFINITY,
    answerInThread: false,
    holdsQuickSteps: false,
    render: plainText,
    post: async (_to, text, options) => print(text, options.kind),
    edit: async (_message, text, options) => void print(text, options.kind),
    startWorking: () => async () => {},
    approvals: {
      post: async (_to, text, approvalId) => {
        print(`${text.split("\n").join("\n  ")}\n  Type yes to approve or no to deny.`, "step");
        approvals.asked(approvalId);
        return { id: approvalId };
      },
      settle: async (message, text) => {
        approvals.closed(message.id);
        print(text, "step");
      },
    },
  };
}

/** Markdown's inline marks that read as noise in a terminal: `code` spans and _(italic asides)_. */
export function plainText(markdown: string): string {
  return markdown.replace(/(?<!`)`([^`\n]+)`(?!`)/g, "$1").replace(/(^|\s)_\(([^\n]*?)\)_(?=\s|$)/g, "$1($2)");
}
