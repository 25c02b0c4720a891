import { describe, expect, it } from "vitest";
import { newTurnId } from "../../src/store/turn-ids.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("src/store/turn-ids.ts: turn ids are time-ordered UUIDs (version 7), so the indexes keyed by them grow at their end", () => {
  it("makes well-formed, distinct ids", () => {
    const ids = Array.from({ length: 10_000 }, () => newTurnId());
    for (const id of ids.slice(0, 50)) expect(id).toMatch(UUID_V7);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("sorts an id made later after one made earlier, as text (what the b-trees compare)", () => {
    const start = Date.parse("2026-12-06T08:00:00Z");
    const ids = Array.from({ length: 1_000 }, (_, i) => newTurnId(start + i * 7));
    expect([...ids].sort()).toEqual(ids);
    // The time is the first 48 bits, readable back.
    expect(Number.parseInt(ids[0]!.replace(/-/g, "").slice(0, 12), 16)).toBe(start);
  });
});
