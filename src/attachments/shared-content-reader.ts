import type { ImageInput } from "../agent/types.js";
import type { Logger } from "../log.js";
import type { AttachmentDescriptor, QuotedMessage } from "../contract/inbound.js";
import type { SharedContent } from "../contract/inbound.js";
import type { StoredAttachment } from "../store/types.js";
import { displayName, fileNote, formatSize, inlinedText, quoteHeading } from "./describe.js";
import { readFiles, type AttachmentSettings, type FileOutcome } from "./file-reader.js";
import { baseType } from "./file-types.js";
import { ImageMemory } from "./image-memory.js";
import { deadline } from "../signals.js";
import { followReplyChain } from "./reply-chain.js";

/** The question as the model gets it, and what memory keeps of its files. */
export interface ReadQuestion {
  /** The quoted and forwarded messages, the question's text, a note on each file, the text files inlined. */
  text: string;
  /** Images shown with it, numbered in the text's order. */
  images: ImageInput[];
  /** Name, type and size of every file the question shared; never the content. */
  files: StoredAttachment[];
  /** Gives the images' bytes back to the process's image memory: call it when the turn ends. */
  release(): void;
}

/** All turns together hold at most this many bytes of images (or one largest image, if more). */
const IMAGE_MEMORY_BYTES = 100 * 1024 * 1024;

/** Quoted and forwarded text shown at most, per message. */
const MAX_QUOTED_CHARS = 4_000;

/** The limits of what a question may share; whether images are shown depends on the turn's model. */
export interface ReaderSettings extends Omit<AttachmentSettings, "vision"> {
  /** Whether the model is shown images (see visionEnabled). */
  seesImages(model: string): boolean;
}

/** The turn a question is read for. */
export interface ReadingTurn {
  /** The model that will answer (a channel may choose its own). */
  model: string;
  signal: AbortSignal;
  logger: Logger;
}

/** One message's block in the question: its heading (none for the question itself), text and files. */
interface Part {
  heading?: string;
  text: string;
  files: AttachmentDescriptor[];
}

/**
 * Reads what a question shares, within the turn and its own time limit: follows the reply chain,
 * fetches the files the model may get, and writes the question the model reads. The core decides
 * all of it; platforms only describe and fetch. Never throws: whatever cannot be had is named,
 * with the reason, and the turn goes on.
 */
export class SharedContentReader {
  readonly imageMemory: ImageMemory;

  constructor(private readonly readerSettings: ReaderSettings) {
    this.imageMemory = new ImageMemory(Math.max(IMAGE_MEMORY_BYTES, readerSettings.maxImageBytes));
  }

  async read(question: string, shared: SharedContent | undefined, turn: ReadingTurn): Promise<ReadQuestion> {
    if (!shared || nothingShared(shared)) return { text: question, images: [], files: [], release: () => {} };
    const { seesImages, ...limits } = this.readerSettings;
    const settings: AttachmentSettings = { ...limits, vision: seesImages(turn.model) };
    const reading = deadline(turn.signal, settings.timeoutMs);
    try {
      return await this.readWithin(question, shared, settings, reading.signal, turn);
    } finally {
      reading.release();
    }
  }

  private async readWithin(
    question: string,
    shared: SharedContent,
    settings: AttachmentSettings,
    signal: AbortSignal,
    turn: ReadingTurn,
  ): Promise<ReadQuestion> {
    const { logger, signal: turnSignal } = turn;
    const chain = await followReplyChain(shared, settings.maxReplyChain, signal, logger);
    const own: Part[] = [{ text: question, files: shared.attachments }, ...forwardedParts(shared.forwarded)];
    const quoted = chain.map((message, i) => [
      quotePart(i === 0 ? "The message this replies to" : "An earlier message it follows", message),
      ...forwardedParts(message.forwarded),
    ]);
    // Files compete for the limits in order of importance: the question's own, then the replied-to message's, then earlier ones.
    const byImportance = [...own, ...quoted.flat()];
    const files = byImportance.flatMap((part) => part.files);
    const { imageMemory } = this;
    const outcomes = await readFiles(files, { source: shared.source, settings, signal, turnSignal, imageMemory, logger });
    const held = outcomes.reduce((sum, outcome) => sum + (outcome.kind === "image" ? outcome.image.data.length : 0), 0);
    let released = false;
    const release = () => {
      if (!released) imageMemory.give(held);
      released = true;
    };
    try {
      return { ...compose(own, quoted, files, outcomes, settings.maxTextBytes), files: files.map(stored), release };
    } catch (error) {
      release();
      throw error;
    }
  }
}

/** The question's text, the oldest quoted message first and the question last, and its images in that order. */
function compose(
  own: Part[],
  quoted: Part[][],
  files: AttachmentDescriptor[],
  outcomes: FileOutcome[],
  maxTextBytes: number,
): { text: string; images: ImageInput[] } {
  const rendered = withinTextBudget(files, outcomes, maxTextBytes);
  const inOrder = [...[...quoted].reverse().flat(), ...own.slice(1), own[0]!].filter(
    (part) => part.heading === undefined || part.text !== "" || part.files.length > 0,
  );
  const images: ImageInput[] = [];
  const blocks = inOrder.map((part) => {
    const lines = [part.heading, part.text, ...part.files.map((file) => rendered.get(file)!(images))];
    return lines.filter((line) => line !== undefined && line !== "").join("\n");
  });
  return { text: blocks.filter((block) => block !== "").join("\n\n"), images };
}

/**
 * Each file's lines, given the images shown so far (an image is numbered as it is placed). Text
 * files share MAX_TEXT_ATTACHMENT_BYTES in order of importance; what does not fit is cut.
 */
function withinTextBudget(
  files: AttachmentDescriptor[],
  outcomes: FileOutcome[],
  maxTextBytes: number,
): Map<AttachmentDescriptor, (images: ImageInput[]) => string> {
  let left = maxTextBytes;
  const rendered = new Map<AttachmentDescriptor, (images: ImageInput[]) => string>();
  files.forEach((file, i) => {
    const outcome = outcomes[i]!;
    if (outcome.kind === "noted") return rendered.set(file, () => fileNote(file, outcome.as, outcome.tail));
    if (outcome.kind === "image") {
      return rendered.set(file, (images) => fileNote(file, "image", `attached as image ${images.push(outcome.image)}`));
    }
    if (left <= 0) {
      const tail = `not read: the ${formatSize(maxTextBytes)} of text files a question may have were used by the files before it`;
      return rendered.set(file, () => fileNote(file, "text", tail));
    }
    const bytes = Buffer.from(outcome.text, "utf8");
    const cut = outcome.truncated || bytes.length > left;
    const text = bytes.length > left ? decodeStart(bytes.subarray(0, left)) : outcome.text;
    const shownBytes = Math.min(bytes.length, left);
    left -= shownBytes;
    return rendered.set(file, () => inlinedText(file, text, cut ? { shownBytes } : undefined));
  });
  return rendered;
}

function nothingShared(shared: SharedContent): boolean {
  return shared.attachments.length === 0 && !shared.replyTo && !shared.repliesTo && !shared.forwarded?.length;
}

function quotePart(what: string, message: QuotedMessage): Part {
  return { heading: quoteHeading(what, message), text: clipQuote(message.text), files: message.attachments };
}

function forwardedParts(forwarded: QuotedMessage[] | undefined): Part[] {
  return (forwarded ?? []).map((message) => quotePart("A forwarded message", message));
}

function clipQuote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MAX_QUOTED_CHARS ? trimmed : `${trimmed.slice(0, MAX_QUOTED_CHARS)}… [the rest of this message is left out]`;
}

/** The bytes as text, without a character cut in half at the end. */
const decodeStart = (bytes: Buffer) => new TextDecoder("utf-8").decode(bytes, { stream: true });

const stored = (file: AttachmentDescriptor): StoredAttachment => ({
  name: displayName(file.name),
  ...(baseType(file.contentType) ? { type: baseType(file.contentType) } : {}),
  ...(file.size !== undefined ? { size: file.size } : {}),
});
