/**
 * Splits a long Markdown message into chunks a platform accepts, losing no text:
 * at paragraph breaks where possible, else at line breaks, else between words; a word is cut
 * only when it alone is longer than a chunk. A code block that spans chunks is closed at the
 * end of one and reopened, with its language, at the start of the next.
 */
export function splitMessage(text: string, maxLength: number): string[] {
  if (maxLength < 32) throw new RangeError("maxLength must be at least 32");
  if (text.length <= maxLength) return [text];

  const chunks: string[] = [];
  let lines: string[] = [];
  let length = 0;
  /** The fence line (e.g. "```ts") of the code block open at the end of `lines`, if any. */
  let openFence: string | undefined;
  /** The fence open when the current chunk started. */
  let chunkFence: string | undefined;

  const closing = (fence: string | undefined) => (fence ? "\n```" : "");
  const emit = (body: string[], fenceAtEnd: string | undefined) => {
    const content = body.join("\n") + closing(fenceAtEnd);
    if (content.trim() !== "") chunks.push(content);
  };
  const startChunk = (fence: string | undefined) => {
    chunkFence = fence;
    lines = fence ? [fence] : [];
    length = fence ? fence.length : 0;
  };

  const flush = () => {
    // Prefer to end at a paragraph break in the second half of the chunk, outside code.
    const cut = paragraphCut(lines, length, maxLength, chunkFence);
    if (cut !== undefined) {
      const carry = lines.slice(cut + 1);
      emit(lines.slice(0, cut), undefined);
      openFence = undefined;
      startChunk(undefined);
      for (const line of carry) addLine(line);
      return;
    }
    emit(lines, openFence);
    startChunk(openFence);
  };

  const addLine = (line: string) => {
    const fenceAfter = nextFence(openFence, line);
    const separator = lines.length > 0 ? 1 : 0;
    const budget = maxLength - closing(fenceAfter).length;
    if (length + separator + line.length <= budget) {
      lines.push(line);
      length += separator + line.length;
      openFence = fenceAfter;
      return;
    }
    if (lines.length > (chunkFence ? 1 : 0)) {
      flush();
      return addLine(line);
    }
    // The line alone does not fit in an empty chunk: cut it between words.
    const room = budget - length - separator;
    const [head, tail] = cutLine(line, room);
    lines.push(head);
    length += separator + head.length;
    flush();
    addLine(tail);
  };

  startChunk(undefined);
  for (const line of text.split("\n")) addLine(line);
  emit(lines, openFence);
  return chunks;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w+#.-]*)/;

/** The fence open after `line`, given the one open before it. */
function nextFence(open: string | undefined, line: string): string | undefined {
  const match = FENCE.exec(line);
  if (!match) return open;
  if (open) return undefined;
  return `${match[1]}${match[2] ?? ""}`;
}

function paragraphCut(lines: string[], length: number, maxLength: number, fenceAtStart: string | undefined): number | undefined {
  let position = length;
  let fence = fenceAtStart;
  const fenceAt: (string | undefined)[] = [];
  for (const line of lines) {
    fence = nextFence(fence, line);
    fenceAt.push(fence);
  }
  for (let i = lines.length - 1; i > 0; i--) {
    position -= lines[i]!.length + 1;
    if (position < maxLength / 2) return undefined;
    if (lines[i]!.trim() === "" && fenceAt[i] === undefined && fenceAt[i - 1] === undefined) return i;
  }
  return undefined;
}

/** Cuts a line at the last space that fits in `room`; mid-word only when no space does. */
function cutLine(line: string, room: number): [string, string] {
  const limit = Math.max(1, room);
  const space = line.lastIndexOf(" ", limit);
  const at = space > 0 ? space : limit;
  const head = line.slice(0, at);
  const tail = line.slice(space > 0 ? at + 1 : at);
  return [head, tail];
}
