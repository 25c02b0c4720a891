// The thread that checkpoints the SQLite file's write-ahead log (see wal-checkpointer.ts). Plain
// JavaScript: it needs no loader, so it starts in milliseconds and costs no TypeScript compiler.
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";

const { path, everyMs, restartAtFrames } = workerData;
const db = new Database(path, { fileMustExist: true });
// RESTART waits for the writer of the moment (a commit takes well under this).
db.pragma("busy_timeout = 1000");
const passive = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
const restart = db.prepare("PRAGMA wal_checkpoint(RESTART)");

/**
 * A PASSIVE checkpoint copies the log's frames into the file without holding up any writer. A
 * writer starts the log over only once every frame was copied, which a checkpoint racing a busy
 * writer never sees: past `restartAtFrames` the round ends with RESTART, which holds writers off
 * while it copies the few frames written since, so the next commit starts the log over.
 */
function round() {
  try {
    let result = passive.get();
    if (result.log >= restartAtFrames) result = restart.get();
    parentPort.postMessage({ type: "checkpointed", ...result });
  } catch (error) {
    parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
}

const timer = setInterval(round, everyMs);
parentPort.on("message", (message) => {
  if (message === "now") round();
  if (message === "stop") {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
