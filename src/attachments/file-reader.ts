import type { ImageInput } from "../agent/types.js";
import type { Logger } from "../log.js";
import type { BoundedFetchError } from "../net/bounded-fetch.js";
import type { AttachmentDescriptor, FileLimits, SharedContentSource } from "../contract/inbound.js";
import { formatSeconds, formatSize } from "./describe.js";
import { declaredKind, isShowableImage, readAsText, sniffImage, type FileKind } from "./file-types.js";
import type { ImageMemory } from "./image-memory.js";
import { untilAborted } from "../signals.js";
import { hasCode } from "../errors.js";

/** The limits of what a question may share (VISION, MAX_IMAGES_PER_TURN, ... in the config). */
export interface AttachmentSettings {
  /** The model is shown images (see visionEnabled). */
  vision: boolean;
  maxImages: number;
  maxImageBytes: number;
  /** Text of files inlined in one question, in all. */
  maxTextBytes: number;
  /** Messages of a reply chain read, the replied-to one included. */
  maxReplyChain: number;
  /** Reading what a question shares ends after this long. */
  timeoutMs: number;
}

/** What became of one file: shown as an image, read as text, or only named (with why). */
export type FileOutcome =
  | { kind: "image"; image: ImageInput }
  | { kind: "text"; text: string; truncated: boolean }
  | { kind: "noted"; as: FileKind; tail: string };

/** Text files fetched for one question at most; later ones are named (each may take the whole text budget). */
const MAX_TEXT_FILES = 10;

export interface FileReading {
  source?: SharedContentSource;
  settings: AttachmentSettings;
  /** Ends the reading (the turn's signal, and the reading's own time limit). */
  signal: AbortSignal;
  /** The turn's own signal: its abort is no file's fault. */
  turnSignal: AbortSignal;
  /** What every turn's images may hold at once; an image shown keeps its bytes taken until the caller gives them back. */
  imageMemory: ImageMemory;
  logger: Logger;
}

/**
 * Decides, for files in order of importance, which are fetched (images the model may see, up to
 * the count and size limits; text files), fetches those at once, and checks each against the
 * type it declared. Never throws: a file that cannot be had is noted with the reason.
 */
export function readFiles(files: readonly AttachmentDescriptor[], reading: FileReading): Promise<FileOutcome[]> {
  const { settings } = reading;
  let images = 0;
  let texts = 0;
  return Promise.all(
    files.map(async (file): Promise<FileOutcome> => {
      const kind = declaredKind(file);
      const noted = (tail: string): FileOutcome => ({ kind: "noted", as: kind, tail });
      if (kind === "image") {
        if (!isShowableImage(file)) return noted("not shown: only PNG, JPEG, GIF and WebP images can be shown");
        if (!settings.vision) return noted("not shown, this model reads text only");
        if (file.size !== undefined && file.size > settings.maxImageBytes) {
          return noted(`not shown: larger than the ${formatSize(settings.maxImageBytes)} limit for images`);
        }
        if (images >= settings.maxImages) return noted(`not shown: at most ${settings.maxImages} images are shown per question`);
        // Room for the largest image it may turn out to be; what it does not need is given back once it is read.
        if (!reading.imageMemory.take(settings.maxImageBytes))
          return noted("not shown: the bot holds as many images as it may right now; ask again in a moment");
        images++;
        const outcome = await fetchChecked(file, kind, { maxBytes: settings.maxImageBytes, overflow: "fail", timeoutMs: settings.timeoutMs }, reading);
        reading.imageMemory.give(settings.maxImageBytes - (outcome.kind === "image" ? outcome.image.data.length : 0));
        return outcome;
      }
      if (kind === "text") {
        if (texts >= MAX_TEXT_FILES) return noted(`not read: at most ${MAX_TEXT_FILES} text files are read per question`);
        texts++;
        return fetchChecked(file, kind, { maxBytes: settings.maxTextBytes, overflow: "truncate", timeoutMs: settings.timeoutMs }, reading);
      }
      return noted("not read: only images and text files are");
    }),
  );
}

async function fetchChecked(file: AttachmentDescriptor, kind: "image" | "text", limits: FileLimits, reading: FileReading): Promise<FileOutcome> {
  const noted = (tail: string): FileOutcome => ({ kind: "noted", as: kind, tail });
  if (!reading.source) return noted("unavailable: this platform does not hand files to the bot");
  let fetched;
  try {
    fetched = await untilAborted(reading.source.fetchFile(file, limits, reading.signal), reading.signal);
  } catch (error) {
    return noted(`unavailable: ${whyUnavailable(error, limits, reading)}`);
  }
  if (kind === "image") {
    const mediaType = sniffImage(fetched.bytes);
    if (!mediaType) return noted("unavailable: its content is not the image it claims to be");
    return { kind: "image", image: { mediaType, data: fetched.bytes } };
  }
  const text = readAsText(fetched.bytes, fetched.truncated);
  return text === undefined ? noted("not read: its content is not text") : { kind: "text", text, truncated: fetched.truncated };
}

/** Why a download failed, in words the model may pass on; the detail goes to the log. */
function whyUnavailable(error: unknown, limits: FileLimits, reading: FileReading): string {
  if (hasCode(error, "file_unavailable")) return error.message;
  if (hasCode<BoundedFetchError>(error, "fetch_failed")) {
    reading.logger.info({ err: error, failure: error.failure }, "a shared file could not be fetched");
    switch (error.failure) {
      case "not_allowed":
        return "its address is not on the platform's file host";
      case "redirected":
        return "the file host sent the download elsewhere, which the bot does not follow";
      case "http_status":
        return `the file host answered HTTP ${error.status}${error.status === 403 || error.status === 404 ? " (the link may have expired)" : ""}`;
      case "too_large":
        return `it is larger than the ${formatSize(limits.maxBytes)} limit`;
      case "timeout":
        return `it did not arrive within ${formatSeconds(limits.timeoutMs)}`;
      case "unreachable":
        return "the file host could not be reached";
    }
  }
  if (reading.signal.aborted && !reading.turnSignal.aborted) return `it did not arrive within ${formatSeconds(reading.settings.timeoutMs)}`;
  reading.logger.warn({ err: error }, "a shared file could not be fetched");
  return "the download failed";
}
