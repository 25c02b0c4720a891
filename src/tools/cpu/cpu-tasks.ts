/**
 * The CPU-bound jobs built-in tools hand to a worker thread, by name. This table is loaded only
 * inside the worker (the main thread imports its types alone), so the libraries the tasks need
 * never enter the main process.
 */
export const cpuTasks = {
  calculate: async () => (await import("../builtin/calculator-engine.js")).calculate,
} satisfies Record<string, () => Promise<(input: never) => unknown>>;

export type CpuTaskName = keyof typeof cpuTasks;
type TaskFunction<Name extends CpuTaskName> = Awaited<ReturnType<(typeof cpuTasks)[Name]>>;
export type CpuTaskInput<Name extends CpuTaskName> = Parameters<TaskFunction<Name>>[0];
export type CpuTaskOutput<Name extends CpuTaskName> = Awaited<ReturnType<TaskFunction<Name>>>;

/** Messages between the pool and a worker. */
export type ToWorker = { id: number; task: CpuTaskName; input: unknown };
export type FromWorker = { type: "ready" } | { type: "done"; id: number; value: unknown } | { type: "failed"; id: number; message: string };
