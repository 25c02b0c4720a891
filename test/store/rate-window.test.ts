import { describe, expect, it } from "vitest";
import { takeTurn, type RateCounter } from "../../src/store/rate-window.js";

const MINUTE = 60_000;

/** Takes turns at the given times (ms), returning which were admitted. */
function admitted(times: number[], limit: number): boolean[] {
  let counter: RateCounter | undefined;
  return times.map((time) => {
    const next = takeTurn(counter, time, MINUTE, limit);
    if (next) counter = next;
    return next !== undefined;
  });
}

describe("the per-user rate window", () => {
  it("admits `limit` turns in a minute and refuses the next", () => {
    expect(admitted([0, 1_000, 2_000, 3_000], 3)).toEqual([true, true, true, false]);
  });

  it("counts the previous minute's turns for the part of it still in the last 60 seconds, rounded up", () => {
    // three turns at the end of one minute: just after it ends they still count in full…
    expect(admitted([59_000, 59_500, 59_900, 60_100], 3)).toEqual([true, true, true, false]);
    // …two thirds of the way into the next minute, only one of them does
    expect(admitted([59_000, 59_500, 59_900, 100_000, 100_001], 3)).toEqual([true, true, true, true, true]);
    expect(admitted([59_000, 59_500, 59_900, 100_000, 100_001, 100_002], 3)).toEqual([true, true, true, true, true, false]);
  });

  it("forgets a user who was quiet for a whole minute", () => {
    expect(admitted([0, 1, 2, 125_000, 125_001, 125_002], 3)).toEqual([true, true, true, true, true, true]);
  });
});
