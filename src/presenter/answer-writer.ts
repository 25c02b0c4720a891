import { waitingOutRateLimits } from "./rate-limits.js";
import { splitMessage } from "./split-message.js";
import type { ChatSurface, Destination, PostedMessage } from "../contract/surface.js";
import { PRESENTER_TEXT } from "./texts.js";

export interface AnswerWriterOptions {
  surface: ChatSurface;
  destination: Destination;
  /** Edited with the first part instead of posting it (a slash command's deferred reply). */
  placeholder?: PostedMessage;
  /** The asker: the first part may notify them, and nobody else. */
  notify: string;
  maxMessages: number;
  /** The turn whose 👍 / 👎 go under the answer's last message (see PostOptions.feedback). */
  feedback?: string;
  /** Rate limits are waited out (see waitingOutRateLimits) only while the wait ends before this (performance.now() time). */
  deadline?: () => number;
}

/** An answer as messages: its parts split at the platform's limit, and whether the whole goes as a file too. */
export interface AnswerLayout {
  /** The parts posted as messages. */
  parts: string[];
  /** All parts: past `maxMessages` only the first ones are posted, and the file says how many there were. */
  total: number;
  inFile: boolean;
}

/**
 * How an answer is shown: rendered, split on clean boundaries; past `maxMessages` parts, the
 * parts that fit and then the whole answer as a file, so nothing is lost and a channel is not
 * flooded. The streamed path ends in exactly this layout too.
 */
export function answerLayout(surface: ChatSurface, markdown: string, maxMessages: number): AnswerLayout {
  const parts = splitMessage(surface.render(markdown), surface.messageLimit);
  const inFile = parts.length > maxMessages && surface.postFile !== undefined;
  return { parts: inFile ? parts.slice(0, Math.max(1, maxMessages - 1)) : parts, total: parts.length, inFile };
}

/** Posts the rest of an answer as a file, with a note saying how much the messages above hold. */
export async function postAnswerFile(surface: ChatSurface, destination: Destination, markdown: string, layout: AnswerLayout): Promise<void> {
  const note = surface.render(PRESENTER_TEXT.restInFile(layout.parts.length, layout.total));
  await surface.postFile!(destination, { name: "answer.md", text: markdown, note });
}

/** Posts a whole answer in its layout (see answerLayout), the first part notifying the asker. */
export class AnswerWriter {
  constructor(private readonly options: AnswerWriterOptions) {}

  async write(markdown: string): Promise<void> {
    const { surface, destination, placeholder, notify, maxMessages, deadline, feedback } = this.options;
    const layout = answerLayout(surface, markdown, maxMessages);
    for (const [index, part] of layout.parts.entries()) {
      const options = {
        kind: "answer" as const,
        ...(index === 0 ? { notify } : {}),
        ...(feedback !== undefined && index === layout.parts.length - 1 ? { feedback } : {}),
      };
      if (index === 0 && placeholder) await waitingOutRateLimits(() => surface.edit(placeholder, part, options), deadline);
      else await waitingOutRateLimits(() => surface.post(destination, part, options), deadline);
    }
    if (layout.inFile) await waitingOutRateLimits(() => postAnswerFile(surface, destination, markdown, layout), deadline);
  }
}
