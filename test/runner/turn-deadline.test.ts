import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnDeadline } from "../../src/runner/turn-deadline.js";

describe("a turn's time limit", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fires at the limit when nothing waits", () => {
    const expired = vi.fn();
    new TurnDeadline(1_000, expired);
    vi.advanceTimersByTime(999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("stops while a call waits for approval and runs on for the time that was left", () => {
    const expired = vi.fn();
    const deadline = new TurnDeadline(1_000, expired);
    vi.advanceTimersByTime(400);
    deadline.pause();
    vi.advanceTimersByTime(60 * 60_000);
    expect(expired).not.toHaveBeenCalled();
    deadline.resume();
    vi.advanceTimersByTime(599);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("runs again only when the last of several waiting calls is answered", () => {
    const expired = vi.fn();
    const deadline = new TurnDeadline(1_000, expired);
    deadline.pause();
    deadline.pause();
    deadline.resume();
    vi.advanceTimersByTime(5_000);
    expect(expired).not.toHaveBeenCalled();
    deadline.resume();
    vi.advanceTimersByTime(1_000);
    expect(expired).toHaveBeenCalledOnce();
  });

  it("never fires once the turn ended", () => {
    const expired = vi.fn();
    const deadline = new TurnDeadline(1_000, expired);
    deadline.pause();
    deadline.stop();
    deadline.resume();
    vi.advanceTimersByTime(10_000);
    expect(expired).not.toHaveBeenCalled();
  });
});
