import { afterEach, describe, expect, it } from "vitest";
import { CpuWorkerPool } from "../../src/tools/cpu/cpu-pool.js";

const never = () => new AbortController().signal;
const abortAfter = (ms: number) => AbortSignal.timeout(ms);

describe("the pool of CPU worker threads", () => {
  let pool: CpuWorkerPool;
  afterEach(() => pool.close());

  it("starts one thread on first use and keeps it for the next tasks", async () => {
    pool = new CpuWorkerPool({ maxWorkers: 2, maxHeapMb: 128, idleRetireMs: 30_000 });
    expect(pool.size).toBe(0);
    expect(await pool.run("calculate", "6 * 7", never())).toBe("42");
    expect(await pool.run("calculate", "2 ^ 10", never())).toBe("1024");
    expect(pool.counts).toEqual({ started: 1, terminated: 0 });
  });

  it("ends a thread whose task outlives its signal, and a fresh thread takes the next task", async () => {
    pool = new CpuWorkerPool({ maxWorkers: 1, maxHeapMb: 128, idleRetireMs: 30_000 });
    await pool.run("calculate", "1", never()); // warm, so the limit below measures the task alone
    const started = performance.now();
    // a primality test of a 60-digit number computes for over a minute
    await expect(pool.run("calculate", 'isPrime(bignumber("1e60") + 7)', abortAfter(300))).rejects.toMatchObject({ name: "TimeoutError" });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await pool.run("calculate", "1 + 1", never())).toBe("2");
    expect(pool.counts).toEqual({ started: 2, terminated: 1 });
  });

  it("stops a task past the heap cap with a clear reason, and the process goes on", async () => {
    pool = new CpuWorkerPool({ maxWorkers: 1, maxHeapMb: 64, idleRetireMs: 30_000 });
    // index assignment grows a matrix without calling any refused function
    await expect(pool.run("calculate", "A = [1]; A[30000, 30000] = 1; size(A)", abortAfter(20_000))).rejects.toThrow(
      "it needed more than 64 MB of memory and was stopped",
    );
    expect(await pool.run("calculate", "3 * 3", never())).toBe("9");
  });

  it("drops a waiting task whose signal aborts without touching the busy thread", async () => {
    pool = new CpuWorkerPool({ maxWorkers: 1, maxHeapMb: 128, idleRetireMs: 30_000 });
    await pool.run("calculate", "1", never());
    const slow = new AbortController();
    const running = pool.run("calculate", 'isPrime(bignumber("1e60") + 7)', slow.signal);
    const waiting = new AbortController();
    const queued = pool.run("calculate", "2 + 2", waiting.signal);
    waiting.abort(new Error("gave up waiting"));
    await expect(queued).rejects.toThrow("gave up waiting");
    expect(pool.counts.terminated).toBe(0);
    slow.abort(new Error("enough"));
    await expect(running).rejects.toThrow("enough");
    expect(pool.counts.terminated).toBe(1);
  });
});
