import { parentPort } from "node:worker_threads";
import { cpuTasks, type CpuTaskName, type FromWorker, type ToWorker } from "./cpu-tasks.js";

/**
 * A CPU worker: runs one task at a time for the pool and answers with its value or its error
 * message. Every task module is loaded before the worker reports ready, so a task's time limit
 * (enforced by the pool, which terminates the thread) covers the computation, never the loading.
 */
const port = parentPort!;
const names = Object.keys(cpuTasks) as CpuTaskName[];
const loaded = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await cpuTasks[name]()] as const))) as Record<
  CpuTaskName,
  (input: unknown) => unknown
>;

const send = (message: FromWorker) => port.postMessage(message);

port.on("message", async ({ id, task, input }: ToWorker) => {
  try {
    send({ type: "done", id, value: await loaded[task](input) });
  } catch (error) {
    send({ type: "failed", id, message: (error as Error)?.message ?? String(error) });
  }
});
send({ type: "ready" });
