import type { AttachmentDescriptor, QuotedMessage } from "../contract/inbound.js";
import type { StoredMessage } from "../store/types.js";
import { baseType, type FileKind } from "./file-types.js";

/**
 * How the model reads what a question shares: one bracketed line per file ("[image: screenshot.png,
 * 1.2 MB — not shown, this model reads text only]"), headed blocks for quoted messages.
 */

/** The longest file name shown; names are user input. */
const MAX_NAME_CHARS = 100;

/** Sizes as people read them: 900 bytes, 12.5 KB, 1.2 MB, 9.3 GB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const exponent = Math.min(3, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${Number(value.toFixed(value < 10 ? 1 : 0))} ${["", "KB", "MB", "GB"][exponent]}`;
}

export const formatSeconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

/**
 * A file name fit to show inside a note: no control or format characters (a name cannot start a
 * new line or reorder the text around it), no brackets (it cannot close the note), not too long.
 */
export function displayName(name: string): string {
  const flat = name
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .replace(/\[/g, "(")
    .replace(/\]/g, ")")
    .trim();
  const characters = [...(flat || "file")];
  return characters.length <= MAX_NAME_CHARS ? characters.join("") : `${characters.slice(0, MAX_NAME_CHARS - 1).join("")}…`;
}

const LABELS: Record<FileKind, string> = { image: "image", text: "text file", other: "file" };

/** "[image: a.png, 1.2 MB — TAIL]"; files other than images say their type too. */
export function fileNote(file: AttachmentDescriptor, kind: FileKind, tail: string): string {
  return `[${LABELS[kind]}: ${fileFacts(file, kind)} — ${tail}]`;
}

function fileFacts(file: AttachmentDescriptor, kind: FileKind): string {
  const type = kind === "image" ? undefined : baseType(file.contentType);
  return [displayName(file.name), type, file.size === undefined ? undefined : formatSize(file.size)].filter(Boolean).join(", ");
}

/** A text file inlined: a header, its text, and a line that says where it ends or was cut. */
export function inlinedText(file: AttachmentDescriptor, content: string, cut: { shownBytes: number } | undefined): string {
  const name = displayName(file.name);
  const text = cut ? content : content.replace(/\r?\n$/, "");
  const facts = fileFacts(file, "text");
  if (!cut) return `[text file: ${facts}]\n${text}\n[end of ${name}]`;
  return `[text file: ${facts} — only its first ${formatSize(cut.shownBytes)} are shown]\n${text}\n[${name} is cut here]`;
}

/** The heading of a quoted message: which one it is, and whose. */
export function quoteHeading(what: string, message: QuotedMessage): string {
  const author = message.isOwn ? "you (this bot)" : message.authorName ? displayName(message.authorName) : undefined;
  return `[${what}${author ? `, from ${author}` : ""}:]`;
}

/**
 * A remembered message as the model reads it later: a question's files are named (their content
 * was not kept, so a follow-up about one needs it shared again).
 */
export function withStoredFilesNamed(message: StoredMessage): { role: StoredMessage["role"]; text: string } {
  if (!message.attachments?.length) return { role: message.role, text: message.text };
  const named = message.attachments.map((file) =>
    [displayName(file.name), file.type, file.size === undefined ? undefined : formatSize(file.size)].filter(Boolean).join(", "),
  );
  const note = `[files shared with this message, not kept: ${named.join("; ")}]`;
  return {
    role: message.role,
    text:
      message.text === ""
        ? note
        : `${message.text}
${note}`,
  };
}
