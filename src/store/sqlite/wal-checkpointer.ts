import { stat } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { workerFile } from "../../worker-file.js";
import type { Db } from "./database.js";

/** How often the worker looks at the log: often enough to keep it a few MB at hundreds of turns a second. */
const CHECKPOINT_EVERY_MS = 250;
/** Past this many frames of log (about 16 MB), a round also waits for writers to start the log over (see the worker). */
const RESTART_AT_FRAMES = 4_000;
/** A thread that saw at most two commits for this long (an idle bot) ends, as it costs 10-18 MB; a grown log starts another. */
const IDLE_AFTER_MS = 10_000;
/** A stop that takes longer (a checkpoint stuck on the disk) ends the thread instead. */
const STOP_WAIT_MS = 2_000;
/** SQLite's own default, restored when the worker is gone; also the log's size that starts the worker, and what a round waits for before it copies. */
const AUTOCHECKPOINT_PAGES = 1_000;
const START_AT_PAGES = AUTOCHECKPOINT_PAGES;
const WAL_HEADER_BYTES = 32;
const WAL_FRAME_HEADER_BYTES = 24;

const WORKER = workerFile(import.meta.url, { source: "./wal-checkpoint-worker.mjs", built: "./wal-checkpoint-worker.js" });

/** How often the thread looks at the log, how many frames wait before it copies, past how many it starts the log over, after how long quiet it ends (tests make them small). */
export interface CheckpointRounds {
  everyMs?: number;
  checkpointAtFrames?: number;
  restartAtFrames?: number;
  idleAfterMs?: number;
}

/** One round of the worker: frames in the log, and how many of them are now in the file. */
export interface CheckpointRound {
  busy: number;
  log: number;
  checkpointed: number;
}

type FromWorker = ({ type: "checkpointed" } & CheckpointRound) | { type: "failed"; message: string } | { type: "idle" };

/**
 * Checkpoints the write-ahead log from a worker thread with a connection of its own. SQLite's
 * automatic checkpoint runs inside whichever commit crosses 1,000 pages of log, on the main
 * thread, and waits there for two fsyncs; with it off on the main connection, commits only append
 * to the log (synchronous=NORMAL: safe against a crash of the process, not of the machine). A
 * PASSIVE checkpoint takes no lock a writer needs, so turns never wait for it. Should a round or
 * the thread fail, the thread is ended and the main connection checkpoints on its own again, so
 * the log stays bounded either way. A quiet bot's thread copies the rest and ends (see the
 * worker); the log's growth starts the next one, as at start-up.
 */
export class WalCheckpointer {
  private worker?: Worker;
  private stopped: Promise<void> = Promise.resolve();
  private watch?: NodeJS.Timeout;
  private readonly startAtBytes: number;
  private waiting: ((round: CheckpointRound) => void)[] = [];
  private closing = false;
  private fellBack = false;

  constructor(
    private readonly db: Db,
    private readonly onFailure: (message: string) => void = () => {},
    private readonly rounds: CheckpointRounds = {},
  ) {
    db.pragma("wal_autocheckpoint = 0");
    // The log file: a 32-byte header, then frames of a 24-byte header and a page. Sized in frames,
    // so that the thread's first round finds the frames it waits for (see the worker).
    this.startAtBytes = WAL_HEADER_BYTES + START_AT_PAGES * (WAL_FRAME_HEADER_BYTES + Number(db.pragma("page_size", { simple: true })));
    this.watchLog();
  }

  /** Resolves with the next round that checkpointed; `now` asks for one at once, whatever the log holds. */
  nextRound(now = false): Promise<CheckpointRound> {
    const worker = this.start();
    const round = new Promise<CheckpointRound>((resolve) => this.waiting.push(resolve));
    if (now) worker.postMessage("now");
    return round;
  }

  /** Stops the thread (it closes its connection); bounded: a thread that does not stop in time is ended. */
  async stop(): Promise<void> {
    clearInterval(this.watch);
    if (this.closing) return this.stopped;
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage("stop");
    const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await this.stopped;
    clearTimeout(timer);
  }

  /**
   * The thread (10-18 MB of RSS) starts once the log holds what SQLite's own automatic checkpoint
   * would have copied: a bot that has had no turns yet, or none since its thread ended, does not pay for it.
   */
  private watchLog(): void {
    this.watch = setInterval(
      () => void this.startOnceLogGrows().catch((error: unknown) => this.failed(String(error))),
      this.rounds.everyMs ?? CHECKPOINT_EVERY_MS,
    );
    this.watch.unref();
  }

  private async startOnceLogGrows(): Promise<void> {
    if (!this.db.open) return clearInterval(this.watch);
    const logBytes = await stat(`${this.db.name}-wal`).then(
      (file) => file.size,
      () => 0,
    );
    // The store may have closed while the file was looked at.
    if (logBytes >= this.startAtBytes && !this.closing && this.db.open) this.start();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    clearInterval(this.watch);
    const {
      everyMs = CHECKPOINT_EVERY_MS,
      checkpointAtFrames = AUTOCHECKPOINT_PAGES,
      restartAtFrames = RESTART_AT_FRAMES,
      idleAfterMs = IDLE_AFTER_MS,
    } = this.rounds;
    const worker = new Worker(WORKER, { workerData: { path: this.db.name, everyMs, checkpointAtFrames, restartAtFrames, idleAfterMs }, execArgv: [] });
    this.worker = worker;
    let idle = false;
    // Never what keeps the process alive; close() stops it.
    worker.unref();
    worker.on("message", (message: FromWorker) => {
      if (message.type === "idle") idle = true;
      else this.received(message);
    });
    worker.on("error", (error) => this.failed(error.message));
    this.stopped = new Promise((resolve) => worker.once("exit", () => resolve()));
    void this.stopped.then(() => {
      if (this.closing) return;
      if (idle) this.ended(worker);
      else this.failed("the checkpoint thread stopped");
    });
    return worker;
  }

  /** The thread ended on a quiet log: the next one starts when the log grows, or at once for a round asked for meanwhile. */
  private ended(worker: Worker): void {
    if (this.worker !== worker || this.fellBack || !this.db.open) return;
    this.worker = undefined;
    if (this.waiting.length > 0) this.start().postMessage("now");
    else this.watchLog();
  }

  private received(message: Exclude<FromWorker, { type: "idle" }>): void {
    if (message.type === "failed") return this.failed(message.message);
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(message);
  }

  private failed(message: string): void {
    if (this.closing || this.fellBack) return;
    this.fellBack = true;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    clearInterval(this.watch);
    void this.worker?.terminate();
    this.onFailure(message);
  }
}
