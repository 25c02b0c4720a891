import { Worker } from "node:worker_threads";
import { workerFile } from "../../worker-file.js";
import type { Db } from "./database.js";

/** How often the worker copies the log into the file: rarely enough that a page many turns wrote is copied once, often enough to keep the log a few MB at hundreds of turns a second. */
const CHECKPOINT_EVERY_MS = 250;
/** Past this many frames of log (about 16 MB), a round also waits for writers to start the log over (see the worker). */
const RESTART_AT_FRAMES = 4_000;
/** A stop that takes longer (a checkpoint stuck on the disk) ends the thread instead. */
const STOP_WAIT_MS = 2_000;
/** SQLite's own default, restored when the worker is gone. */
const AUTOCHECKPOINT_PAGES = 1_000;

const WORKER = workerFile(import.meta.url, { source: "./wal-checkpoint-worker.mjs", built: "./wal-checkpoint-worker.js" });

/** One round of the worker: frames in the log, and how many of them are now in the file. */
export interface CheckpointRound {
  busy: number;
  log: number;
  checkpointed: number;
}

type FromWorker = ({ type: "checkpointed" } & CheckpointRound) | { type: "failed"; message: string };

/**
 * Checkpoints the write-ahead log from a worker thread with a connection of its own. SQLite's
 * automatic checkpoint runs inside whichever commit crosses 1,000 pages of log, on the main
 * thread, and waits there for two fsyncs; with it off on the main connection, commits only append
 * to the log (synchronous=NORMAL: safe against a crash of the process, not of the machine). A
 * PASSIVE checkpoint takes no lock a writer needs, so turns never wait for it. Should a round or
 * the thread fail, the thread is ended and the main connection checkpoints on its own again, so
 * the log stays bounded either way.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly stopped: Promise<void>;
  private waiting: ((round: CheckpointRound) => void)[] = [];
  private closing = false;
  private fellBack = false;

  constructor(
    private readonly db: Db,
    private readonly onFailure: (message: string) => void = () => {},
    { everyMs = CHECKPOINT_EVERY_MS, restartAtFrames = RESTART_AT_FRAMES } = {},
  ) {
    db.pragma("wal_autocheckpoint = 0");
    this.worker = new Worker(WORKER, { workerData: { path: db.name, everyMs, restartAtFrames }, execArgv: [] });
    // Never what keeps the process alive; close() stops it.
    this.worker.unref();
    this.worker.on("message", (message: FromWorker) => this.received(message));
    this.worker.on("error", (error) => this.failed(error.message));
    this.stopped = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    void this.stopped.then(() => {
      if (!this.closing) this.failed("the checkpoint thread stopped");
    });
  }

  /** Resolves with the next round's result; `now` asks for one at once instead of at the next interval. */
  nextRound(now = false): Promise<CheckpointRound> {
    const round = new Promise<CheckpointRound>((resolve) => this.waiting.push(resolve));
    if (now) this.worker.postMessage("now");
    return round;
  }

  /** Stops the thread (it closes its connection); bounded: a thread that does not stop in time is ended. */
  async stop(): Promise<void> {
    if (this.closing) return this.stopped;
    this.closing = true;
    this.worker.postMessage("stop");
    const timer = setTimeout(() => void this.worker.terminate(), STOP_WAIT_MS);
    await this.stopped;
    clearTimeout(timer);
  }

  private received(message: FromWorker): void {
    if (message.type === "failed") return this.failed(message.message);
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(message);
  }

  private failed(message: string): void {
    if (this.closing || this.fellBack) return;
    this.fellBack = true;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    void this.worker.terminate();
    this.onFailure(message);
  }
}
