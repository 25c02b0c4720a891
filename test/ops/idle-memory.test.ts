import { afterEach, describe, expect, it } from "vitest";
import { IDLE_RELEASE_AFTER_MS, IdleMemoryRelease, releaseMemory } from "../../src/ops/idle-memory.js";

/** A bot's activity as IdleMemoryRelease sees it, on a clock the test moves. */
function watched() {
  const bot = { turnsStarted: 0, inFlight: 0, releases: 0, now: 0 };
  const watcher = new IdleMemoryRelease({
    turnsStarted: () => bot.turnsStarted,
    inFlight: () => bot.inFlight,
    release: () => void bot.releases++,
    now: () => bot.now,
    // the test calls check() itself
    checkMs: 3_600_000,
  });
  /** Moves the clock by `ms` in one-second looks, as the timer would. */
  const pass = (ms: number) => {
    for (let t = 0; t < ms; t += 1_000) {
      bot.now += 1_000;
      watcher.check();
    }
  };
  /** An idle spell from now: no release a second before its end, one at its end, none after. */
  const idleSpell = () => {
    const before = bot.releases;
    pass(IDLE_RELEASE_AFTER_MS - 1_000);
    expect(bot.releases).toBe(before);
    pass(1_000);
    expect(bot.releases).toBe(before + 1);
    pass(5 * IDLE_RELEASE_AFTER_MS);
    expect(bot.releases).toBe(before + 1);
  };
  return { bot, watcher, pass, idleSpell };
}

describe("IdleMemoryRelease: gives a burst's memory back once the bot is idle", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it("releases once after start-up's idle spell, then not again while nothing happens", () => {
    const { bot, watcher, idleSpell } = watched();
    stop = () => watcher.stop();
    idleSpell();
    expect(bot.releases).toBe(1);
  });

  it("gives start-up's memory back when asked (releaseNow), and then only after turns ran", () => {
    const { bot, watcher, pass, idleSpell } = watched();
    stop = () => watcher.stop();
    watcher.releaseNow();
    expect(bot.releases).toBe(1);
    pass(5 * IDLE_RELEASE_AFTER_MS);
    expect(bot.releases).toBe(1);
    bot.turnsStarted++;
    pass(1_000);
    idleSpell();
    expect(bot.releases).toBe(2);
  });

  it("waits for the idle spell after the last turn, holds off while a turn runs, and releases once per spell", () => {
    const { bot, watcher, pass, idleSpell } = watched();
    stop = () => watcher.stop();
    idleSpell();

    // a burst: a turn starts every few seconds, so the bot is never idle long enough
    for (let i = 0; i < 5; i++) {
      bot.turnsStarted++;
      pass(IDLE_RELEASE_AFTER_MS / 2);
    }
    expect(bot.releases).toBe(1);
    // one long turn: running counts as busy, however long since it started
    bot.turnsStarted++;
    bot.inFlight = 1;
    pass(3 * IDLE_RELEASE_AFTER_MS);
    expect(bot.releases).toBe(1);
    bot.inFlight = 0;
    idleSpell();
    expect(bot.releases).toBe(2);
  });
});

describe("releaseMemory", () => {
  it("gives back what a full collection leaves pooled (V8 13 keeps freed pages until a memory-reducing one), and adds no gc global", async () => {
    const rssMb = () => process.memoryUsage.rss() / 1048576;
    const before = rssMb();
    // Objects that live through a few young collections reach the old generation; once dropped,
    // the next full collection frees their pages, and a plain one keeps them committed for reuse.
    let kept: { i: number; s: string }[][] = [];
    for (let round = 0; round < 24; round++) {
      kept.push(Array.from({ length: 200_000 }, (_, i) => ({ i, s: `row ${i}` })));
      if (kept.length > 3) kept.shift();
    }
    kept = [];
    const afterBurst = rssMb();
    expect(afterBurst - before).toBeGreaterThan(100);
    releaseMemory();
    // Older V8s unmap freed pages from a background task: give it a moment.
    const goal = before + (afterBurst - before) / 3;
    for (let wait = 0; wait < 40 && rssMb() >= goal; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
    // most of what the burst added is gone (a plain full collection on Node 24 gave back about a tenth)
    expect(rssMb()).toBeLessThan(goal);
    expect(kept).toEqual([]);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
