import { describe, expect, it } from "vitest";
import { deadline } from "../../src/signals.js";

const never = () => new Promise<never>(() => {});

describe("a deadline", () => {
  it("ends a wait at its time, and a signal read afterwards is already aborted with the same reason", async () => {
    const bound = deadline(new AbortController().signal, 5, () => new Error("out of time"));

    await expect(bound.until(never())).rejects.toThrow("out of time");
    expect(bound.expired).toBe(true);
    expect(bound.signal.aborted).toBe(true);
    expect(bound.signal.reason).toEqual(new Error("out of time"));
    bound.release();
  });

  it("ends a wait, and the signal read before, when the parent aborts; that is not expiry", async () => {
    const parent = new AbortController();
    const bound = deadline(parent.signal, 60_000);
    const signal = bound.signal;
    const waiting = bound.until(never());

    parent.abort("shutdown");

    await expect(waiting).rejects.toBe("shutdown");
    expect(signal.reason).toBe("shutdown");
    expect(bound.expired).toBe(false);
    bound.release();
  });

  it("passes the work's own result or failure through, and a parent aborted at the start ends it at once", async () => {
    const bound = deadline(new AbortController().signal, 60_000);
    await expect(bound.until(Promise.resolve(42))).resolves.toBe(42);
    await expect(bound.until(Promise.reject(new Error("broke")))).rejects.toThrow("broke");
    bound.release();

    const aborted = AbortSignal.abort("gone");
    const late = deadline(aborted, 60_000);
    await expect(late.until(never())).rejects.toBe("gone");
    expect(late.signal.aborted).toBe(true);
  });
});
