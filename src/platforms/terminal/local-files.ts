import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { basename, resolve, sep } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { BoundedFetchError } from "../../net/bounded-fetch.js";
import { FileUnavailable, type AttachmentDescriptor, type FetchedFile, type FileLimits, type SharedContentSource } from "../../contract/inbound.js";

/** Bytes read from disk at a time; the signal is checked between reads. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The kernel's and devices' trees: never a file the operator means to share, and their entries
 * can hold the bot's own secrets (/proc/self/environ has its keys, /proc/self/mem its heap).
 */
const SYSTEM_TREES = ["/proc", "/sys", "/dev"];

const inSystemTree = (path: string) => SYSTEM_TREES.some((tree) => path === tree || path.startsWith(tree + sep));

/** Where the path really leads (symlinks followed), refused if it names or leads into a system tree. */
async function realFileOf(path: string, shown: string): Promise<string> {
  const refused = new Error(`${shown} is a system path (files under /proc, /sys and /dev are never attached)`);
  if (inSystemTree(resolve(path))) throw refused;
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new Error(`there is no file ${shown}`);
  }
  if (inSystemTree(real)) throw refused;
  return real;
}

/**
 * The terminal's `/attach PATH`: a local file the operator names, described like a platform's
 * attachment (its type is left to its name and content, as for any file declared as bytes).
 * Throws an Error whose message says what is wrong with the path.
 */
export async function describeLocalFile(path: string): Promise<AttachmentDescriptor> {
  const absolute = resolve(path);
  await realFileOf(absolute, path);
  let facts;
  try {
    facts = await stat(absolute);
  } catch {
    throw new Error(`there is no file ${path}`);
  }
  if (!facts.isFile()) throw new Error(`${path} is not a regular file`);
  return { name: basename(absolute), size: facts.size, url: pathToFileURL(absolute).href };
}

/**
 * Reads the files `/attach` described, within the core's limits: regular files only (a FIFO or a
 * device could block or never end), read in chunks up to the byte cap while the signal allows.
 */
export const localFiles: SharedContentSource = {
  async fetchFile(file, limits, signal) {
    if (!file.url?.startsWith("file:")) throw new BoundedFetchError("not_allowed", "not a file the operator attached");
    // Checked again on reading: the path may have become a symlink into a system tree since /attach.
    let real: string;
    try {
      real = await realFileOf(fileURLToPath(file.url), file.name);
    } catch (error) {
      throw new FileUnavailable((error as Error).message);
    }
    return readCapped(real, limits, signal);
  },
};

async function readCapped(path: string, limits: FileLimits, signal: AbortSignal): Promise<FetchedFile> {
  // O_NONBLOCK: opening a FIFO does not wait for a writer; it is then refused as no regular file.
  // O_NOFOLLOW: the resolved path's last part cannot have become a symlink since it was checked.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    if (!(await handle.stat()).isFile()) throw new BoundedFetchError("not_allowed", "not a regular file");
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      signal.throwIfAborted();
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(CHUNK_BYTES), 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return { bytes: Buffer.concat(chunks), truncated: false };
      if (total + bytesRead > limits.maxBytes) {
        if (limits.overflow === "fail") throw new BoundedFetchError("too_large", `larger than ${limits.maxBytes} bytes`);
        chunks.push(buffer.subarray(0, limits.maxBytes - total));
        return { bytes: Buffer.concat(chunks), truncated: true };
      }
      total += bytesRead;
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}
