import type { AttachmentDescriptor } from "../contract/inbound.js";

/**
 * What a file is, decided twice: from what the platform declares (its content type, or for a
 * file declared as mere bytes, its name), and from the bytes themselves once fetched. A file is
 * only used as what both agree it is.
 */

/** What the bot may do with a file: show it as an image, inline it as text, or only name it. */
export type FileKind = "image" | "text" | "other";

/** The image formats the OpenAI API accepts as image parts. */
const SHOWABLE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const IMAGE_EXTENSIONS: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

/** Content types of text that are not text/*: data and code formats. */
const TEXT_APPLICATION_TYPES =
  /^application\/(json|ld\+json|x-ndjson|ndjson|jsonl|xml|yaml|x-yaml|toml|x-toml|javascript|x-javascript|ecmascript|typescript|x-typescript|x-sh|x-shellscript|x-python|x-ruby|x-perl|x-php|x-httpd-php|sql|x-sql|graphql|csv|x-csv|x-tex|x-latex|x-diff|x-patch|x-subrip)$|^application\/[\w.-]+\+(json|xml)$/;

/** Names of text files whose content type a platform may leave out or give as plain bytes. */
const TEXT_EXTENSIONS = new Set(
  (
    "txt log md markdown rst adoc csv tsv json jsonl ndjson yaml yml toml ini cfg conf env properties xml html htm css scss less " +
    "js mjs cjs jsx ts tsx py rb go rs java kt kts scala c h cc cpp hpp cs swift m mm php pl sh bash zsh fish ps1 bat sql graphql " +
    "gql proto r lua dart vue svelte diff patch tex srt vtt gradle dockerfile makefile"
  ).split(" "),
);

/** The content type without parameters, lower case ("text/plain; charset=utf-8" → "text/plain"). */
export function baseType(contentType: string | undefined): string | undefined {
  const base = contentType?.split(";")[0]?.trim().toLowerCase();
  return base ? base : undefined;
}

function extensionOf(name: string): string {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  return dot === -1 ? lower : lower.slice(dot + 1);
}

/** Declared as nothing in particular: no type, or plain bytes. */
const isUntyped = (type: string | undefined) => type === undefined || type === "application/octet-stream" || type === "binary/octet-stream";

/** The kind a file claims to be, before anything is fetched. */
export function declaredKind(file: AttachmentDescriptor): FileKind {
  const type = baseType(file.contentType);
  const extension = extensionOf(file.name);
  if (type?.startsWith("image/")) return "image";
  if (type?.startsWith("text/") || (type && TEXT_APPLICATION_TYPES.test(type))) return "text";
  if (isUntyped(type)) {
    if (extension in IMAGE_EXTENSIONS) return "image";
    if (TEXT_EXTENSIONS.has(extension)) return "text";
  }
  return "other";
}

/** True for an image in a format the model can be shown (PNG, JPEG, GIF, WebP), as declared. */
export function isShowableImage(file: AttachmentDescriptor): boolean {
  const type = baseType(file.contentType);
  if (isUntyped(type)) return extensionOf(file.name) in IMAGE_EXTENSIONS;
  return SHOWABLE_IMAGES.has(type === "image/jpg" ? "image/jpeg" : type!);
}

/** The image format the bytes really are (by their magic numbers), or undefined for anything else. */
export function sniffImage(bytes: Buffer): string | undefined {
  const starts = (...values: number[]) => values.every((value, i) => bytes[i] === value);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (
    bytes
      .subarray(0, 6)
      .toString("latin1")
      .match(/^GIF8[79]a$/)
  )
    return "image/gif";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return undefined;
}

/** C0 controls other than tab, line feed, vertical tab, form feed, carriage return and escape (ANSI colours in logs). */
const ODD_CONTROLS = /[\u0001-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g;

/**
 * The bytes as text when they are text: valid UTF-8 (a character cut at the end of a truncated
 * read is dropped), no NUL, and hardly any other control characters. Undefined for anything else
 * (a binary file, a zip named .txt, UTF-16).
 */
export function readAsText(bytes: Buffer, truncated: boolean): string | undefined {
  let text: string;
  try {
    // stream: true holds back an incomplete last character instead of failing on it.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return undefined;
  }
  if (text.includes("\u0000")) return undefined;
  const odd = text.match(ODD_CONTROLS)?.length ?? 0;
  return odd > text.length / 100 ? undefined : text;
}
