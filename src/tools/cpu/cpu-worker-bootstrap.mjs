// The entry of a CPU worker thread. The bot runs as TypeScript under tsx, but a worker starts
// without the main thread's loader (the pool passes no execArgv, and vitest does not use tsx at
// all), so the worker registers tsx itself, in a namespace of its own, before loading its code.
import { tsImport } from "tsx/esm/api";

await tsImport("./cpu-worker.ts", import.meta.url);
