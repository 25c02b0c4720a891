import type { ChatSurface, PostedMessage } from "../../presenter/surface.js";

/**
 * The terminal as a surface: each message is printed as it comes (an edit prints the new text
 * again), steps indented, answers after "bot:". No threads, no limit on length.
 */
export function terminalSurface(write: (line: string) => void): ChatSurface {
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
  };
}

/** Markdown's inline marks that read as noise in a terminal: `code` spans and _(italic asides)_. */
function plainText(markdown: string): string {
  return markdown.replace(/(?<!`)`([^`\n]+)`(?!`)/g, "$1").replace(/(^|\s)_\(([^\n]*?)\)_(?=\s|$)/g, "$1($2)");
}
