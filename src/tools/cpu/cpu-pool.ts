import { Worker } from "node:worker_threads";
import type { CpuTaskInput, CpuTaskName, CpuTaskOutput, FromWorker, ToWorker } from "./cpu-tasks.js";
import { workerFile } from "../../worker-file.js";
import { BotError } from "../../errors.js";

export interface CpuPoolOptions {
  /** Threads at most; calls beyond them wait their turn, in order. */
  maxWorkers: number;
  /** The V8 heap cap of each thread: a task that needs more ends its thread, not the process. */
  maxHeapMb: number;
  /** Threads beyond the first end after this long without work; the first stays warm. */
  idleRetireMs: number;
}

/**
 * Two threads: a task stuck until its time limit does not make every other conversation's
 * calculation wait for it, and a second warm thread costs only when two run at once.
 */
const DEFAULT_CPU_POOL: CpuPoolOptions = { maxWorkers: 2, maxHeapMb: 128, idleRetireMs: 30_000 };

/** A task that could not finish for a reason of the pool's, in words fit for the model. */
export class CpuTaskError extends BotError<"cpu_task_failed"> {
  override readonly name = "CpuTaskError";
  constructor(message: string, options?: ErrorOptions) {
    super("cpu_task_failed", message, options);
  }
}

interface Job {
  id: number;
  task: CpuTaskName;
  input: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job?: Job;
  /** Why the thread ended, from its "error" event (e.g. ERR_WORKER_OUT_OF_MEMORY). */
  failure?: Error;
  retireTimer?: NodeJS.Timeout;
}

/** The worker's entry: under tsx or vitest a bootstrap that registers tsx first (a worker starts without the main thread's loader). */
const WORKER_ENTRY = workerFile(import.meta.url, { source: "./cpu-worker-bootstrap.mjs", built: "./cpu-worker.js" });

/**
 * Runs CPU-bound tasks of built-in tools off the main thread, so that a calculation, however
 * long or large, cannot stall the event loop every conversation shares or take the process down.
 * Synchronous code cannot be interrupted, so a task whose signal aborts (its tool's time limit,
 * or the end of its turn) ends its whole thread; a fresh one replaces it. Threads start on first
 * use, are kept for the next task, and do not keep the process alive while idle.
 */
export class CpuWorkerPool {
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Threads started and terminated so far (for tests and the curious). */
  readonly counts = { started: 0, terminated: 0 };

  constructor(
    private readonly options: CpuPoolOptions = DEFAULT_CPU_POOL,
    private readonly entry: URL = WORKER_ENTRY,
  ) {}

  get size(): number {
    return this.threads.size;
  }

  run<Name extends CpuTaskName>(task: Name, input: CpuTaskInput<Name>, signal: AbortSignal): Promise<CpuTaskOutput<Name>> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new CpuTaskError("the bot is shutting down"));
    return new Promise((resolve, reject) => {
      const onAbort = () => this.abandon(job, signal.reason);
      const job: Job = {
        id: ++this.nextId,
        task,
        input,
        resolve: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value as CpuTaskOutput<Name>);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Ends every thread; tasks still waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new CpuTaskError("the bot is shutting down");
    for (const job of this.queue.splice(0)) job.reject(stopped);
    await Promise.all(
      [...this.threads].map((thread) => {
        thread.job?.reject(stopped);
        return this.terminate(thread);
      }),
    );
  }

  private abandon(job: Job, reason: unknown): void {
    const waiting = this.queue.indexOf(job);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      job.reject(reason);
      this.updateRefs();
      return;
    }
    const thread = [...this.threads].find((candidate) => candidate.job === job);
    if (!thread) return;
    // The task is running and cannot be interrupted: its thread goes, and with it the task.
    thread.job = undefined;
    job.reject(reason);
    void this.terminate(thread);
    this.keepOneWarm();
    this.dispatch();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.threads].find((thread) => thread.ready && !thread.job);
      if (idle) {
        this.assign(idle, this.queue.shift()!);
        continue;
      }
      const booting = [...this.threads].filter((thread) => !thread.ready).length;
      if (booting >= this.queue.length || this.threads.size >= this.options.maxWorkers) break;
      this.spawn();
    }
    this.updateRefs();
  }

  private assign(thread: Thread, job: Job): void {
    clearTimeout(thread.retireTimer);
    thread.job = job;
    thread.worker.postMessage({ id: job.id, task: job.task, input: job.input } satisfies ToWorker);
  }

  private spawn(): void {
    const worker = new Worker(this.entry, {
      // Not the main thread's flags (tsx's loader, inspector ports): the bootstrap sets up what it needs.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    const thread: Thread = { worker, ready: false };
    this.threads.add(thread);
    this.counts.started++;
    worker.on("message", (message: FromWorker) => this.onMessage(thread, message));
    worker.on("error", (error) => (thread.failure = error));
    worker.on("exit", () => this.onExit(thread));
  }

  private onMessage(thread: Thread, message: FromWorker): void {
    if (message.type === "ready") {
      thread.ready = true;
      this.dispatch();
      return;
    }
    const job = thread.job;
    if (!job || job.id !== message.id) return;
    thread.job = undefined;
    if (message.type === "done") job.resolve(message.value);
    else job.reject(new Error(message.message));
    this.scheduleRetire(thread);
    this.dispatch();
  }

  /** A thread ended on its own: out of memory, a crash, or it never started. */
  private onExit(thread: Thread): void {
    if (!this.threads.delete(thread)) return; // terminated on purpose; its job was settled then
    clearTimeout(thread.retireTimer);
    const job = thread.job;
    thread.job = undefined;
    if (job) job.reject(this.describeExit(thread.failure));
    if (thread.ready) {
      this.keepOneWarm();
    } else if (![...this.threads].some((other) => !other.ready)) {
      // It never started (tsx missing, a syntax error): tell those waiting instead of retrying forever.
      const failed = new CpuTaskError(`the worker thread could not start (${thread.failure?.message ?? "it exited"})`);
      for (const waiting of this.queue.splice(0)) waiting.reject(failed);
    }
    this.dispatch();
  }

  private describeExit(failure: Error | undefined): CpuTaskError {
    if ((failure as NodeJS.ErrnoException | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
      return new CpuTaskError(`it needed more than ${this.options.maxHeapMb} MB of memory and was stopped`);
    }
    return new CpuTaskError(`its worker thread stopped unexpectedly${failure ? ` (${failure.message})` : ""}`);
  }

  private keepOneWarm(): void {
    if (!this.closed && this.threads.size === 0) this.spawn();
  }

  private scheduleRetire(thread: Thread): void {
    if (this.threads.size <= 1) return;
    thread.retireTimer = setTimeout(() => {
      if (!thread.job && this.threads.size > 1) void this.terminate(thread);
    }, this.options.idleRetireMs);
    thread.retireTimer.unref();
  }

  private terminate(thread: Thread): Promise<number> {
    this.threads.delete(thread);
    clearTimeout(thread.retireTimer);
    this.counts.terminated++;
    return thread.worker.terminate();
  }

  /** A thread keeps the process alive only while someone waits for it. */
  private updateRefs(): void {
    for (const thread of this.threads) {
      if (thread.job || (!thread.ready && this.queue.length > 0)) thread.worker.ref();
      else thread.worker.unref();
    }
  }
}

let shared: CpuWorkerPool | undefined;

/** The process's pool, created on first use. */
export function cpuPool(): CpuWorkerPool {
  return (shared ??= new CpuWorkerPool());
}

/** Ends the process's pool, if one was started (at shutdown). */
export async function closeCpuPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
