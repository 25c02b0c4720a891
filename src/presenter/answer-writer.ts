import { splitMessage } from "./split-message.js";
import type { ChatSurface, Destination, PostedMessage } from "./surface.js";
import { PRESENTER_TEXT } from "./texts.js";

export interface AnswerWriterOptions {
  surface: ChatSurface;
  destination: Destination;
  /** Edited with the first part instead of posting it (a slash command's deferred reply). */
  placeholder?: PostedMessage;
  /** The asker: the first part may notify them, and nobody else. */
  notify: string;
  maxMessages: number;
}

/**
 * Posts a whole answer: rendered, split at the platform's limit on clean boundaries, the first
 * part notifying the asker. Past `maxMessages` parts, the parts that fit are posted and the whole
 * answer follows as a file, so nothing is lost and a channel is not flooded.
 */
export class AnswerWriter {
  constructor(private readonly options: AnswerWriterOptions) {}

  async write(markdown: string): Promise<void> {
    const { surface, destination, placeholder, notify, maxMessages } = this.options;
    const parts = splitMessage(surface.render(markdown), surface.messageLimit);
    const overflow = parts.length > maxMessages && surface.postFile !== undefined;
    const shown = overflow ? parts.slice(0, Math.max(1, maxMessages - 1)) : parts;
    for (const [index, part] of shown.entries()) {
      const options = index === 0 ? { kind: "answer" as const, notify } : { kind: "answer" as const };
      if (index === 0 && placeholder) await surface.edit(placeholder, part, options);
      else await surface.post(destination, part, options);
    }
    if (overflow) {
      const note = surface.render(PRESENTER_TEXT.restInFile(shown.length, parts.length));
      await surface.postFile!(destination, { name: "answer.md", text: markdown, note });
    }
  }
}
