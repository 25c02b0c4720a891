// The thread that checkpoints the SQLite file's write-ahead log (see wal-checkpointer.ts). Plain
// JavaScript: it needs no loader, so it starts in milliseconds and costs no TypeScript compiler.
import Database from "better-sqlite3";
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { parentPort, workerData } from "node:worker_threads";

const { path, everyMs, checkpointAtFrames, restartAtFrames, idleAfterMs } = workerData;
const db = new Database(path, { fileMustExist: true });
// How long a checkpoint waits for a lock another connection holds (a commit takes well under this).
const BUSY_MS = 1000;
/**
 * RESTART's own, shorter wait: it takes the write lock first and holds it while it waits for the
 * readers to leave the log, so each of its waits holds every writer off. On a loaded disk a second
 * of that could outlast the main connection's own wait and fail a turn; given up sooner, a busy
 * moment costs one skipped restart (reported busy), and the next round tries again.
 */
const RESTART_BUSY_MS = 100;
db.pragma(`busy_timeout = ${BUSY_MS}`);
const passive = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const restartNow = db.prepare("PRAGMA wal_checkpoint(RESTART)");
const truncateNow = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)");

/** A checkpoint that holds writers off (RESTART, TRUNCATE) with its own, shorter wait. */
function holdingWriters(statement) {
  db.pragma(`busy_timeout = ${RESTART_BUSY_MS}`);
  try {
    return statement.get();
  } finally {
    db.pragma(`busy_timeout = ${BUSY_MS}`);
  }
}

/**
 * The wal-index header in the -shm file (https://www.sqlite.org/walformat.html), which SQLite
 * maps shared, so a read sees what its connections wrote: iChange (byte 8) counts commits,
 * mxFrame (16) is the log's last frame, nBackfill (96) the frames copied into the file, in the
 * machine's byte order. Undefined when it cannot be read.
 */
const header = Buffer.alloc(136);
const littleEndian = endianness() === "LE";
let shm;
function readHeader() {
  try {
    shm ??= openSync(`${path}-shm`, "r");
    if (readSync(shm, header, 0, header.length, 0) < header.length) return undefined;
  } catch {
    if (shm !== undefined) closeSync(shm);
    shm = undefined;
    return undefined;
  }
  const u32 = (offset) => (littleEndian ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
  return { commits: u32(8), frames: u32(16), copied: u32(96) };
}

/** Frames in the log not yet copied into the file; Infinity when unknown (then every round checkpoints). */
function framesToCopy(now) {
  return now ? Math.max(0, now.frames - now.copied) : Infinity;
}

/**
 * A round checkpoints once `checkpointAtFrames` frames wait to be copied, as SQLite's own
 * automatic checkpoint would: the first commit after a checkpoint that copied everything starts
 * the log over and waits for an fsync of its header, on the bot's main thread, so copying a quiet
 * bot's few frames at every round would cost each of its turns that fsync (a few hundred µs here,
 * milliseconds on an SD card). A PASSIVE checkpoint copies the frames without holding up any
 * writer. A writer starts the log over only once every frame was copied, which a checkpoint racing
 * a busy writer never sees: past `restartAtFrames` the round ends with RESTART, which holds writers
 * off while it copies the few frames written since, so the next commit starts the log over.
 * `now` is the wal-index header read for the round; a round asked for copies whatever it holds.
 */
function round(asked, now) {
  if (!asked && framesToCopy(now) < checkpointAtFrames) return;
  try {
    let result = passive.get();
    if (result.log >= restartAtFrames) result = holdingWriters(restartNow);
    parentPort.postMessage({ type: "checkpointed", ...result });
  } catch (error) {
    parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * A thread costs 10-18 MB of memory, so once the bot is idle the thread copies what is left and
 * ends: TRUNCATE empties the log file, and the main thread starts a new one when the log has grown
 * back to a round's worth. Idle is at most IDLE_COMMITS commits over `idleAfterMs`: the lease's
 * renewal commits every 10 s even in a quiet bot, while a turn makes three. A TRUNCATE that finds
 * the log in use is given up; the next round tries again.
 */
const IDLE_COMMITS = 2;
const idleRounds = Math.max(1, Math.ceil(idleAfterMs / everyMs));
/** The commit counter at each of the last idleRounds rounds, oldest first (undefined: unknown). */
const commitsSeen = [];
function endIfIdle(commits) {
  commitsSeen.push(commits);
  if (commitsSeen.length <= idleRounds) return;
  const then = commitsSeen.shift();
  const now = commitsSeen.at(-1);
  // the counter is 32 bits and wraps
  if (then === undefined || now === undefined || (now - then) >>> 0 > IDLE_COMMITS) return;
  try {
    if (holdingWriters(truncateNow).busy !== 0) return;
  } catch {
    return;
  }
  parentPort.postMessage({ type: "idle" });
  stop();
}

function stop() {
  clearInterval(timer);
  if (shm !== undefined) closeSync(shm);
  db.close();
  parentPort.close();
}

// One read of the header a round serves both.
const timer = setInterval(() => {
  const now = readHeader();
  round(false, now);
  endIfIdle(now?.commits);
}, everyMs);
parentPort.on("message", (message) => {
  if (message === "now") {
    // asked for: the spell starts over
    commitsSeen.length = 0;
    round(true);
  }
  if (message === "stop") stop();
});
