import { describe, expect, it } from "vitest";
import { discordOrder } from "../../src/platforms/discord/inbound.js";
import { slackOrder } from "../../src/platforms/slack/inbound.js";
import { arrivalOrder, holdUntil } from "../../src/runner/message-order.js";

describe("a message's place in its platform's order", () => {
  it("is Slack's ts in microseconds, and when Slack stamped it", () => {
    expect(slackOrder("1700000000.000100")).toEqual({ key: "1700000000000100", sentAt: 1_700_000_000_000 });
    expect(slackOrder("1700000000.5")).toEqual({ key: "1700000000500000", sentAt: 1_700_000_000_500 });
    expect(BigInt(slackOrder("1700000000.000099")!.key)).toBeLessThan(BigInt(slackOrder("1700000000.000100")!.key));
    expect(slackOrder("not a ts")).toBeUndefined();
  });

  it("is Discord's snowflake, with no hold-back (a guild's events arrive in order)", () => {
    expect(discordOrder("1180000000000002000")).toEqual({ key: "1180000000000002000" });
    expect(discordOrder("9223372036854775808")).toBeUndefined();
    expect(discordOrder("12a")).toBeUndefined();
  });

  it("is the arrival order where the platform has none, always increasing", () => {
    const orders = Array.from({ length: 1000 }, () => BigInt(arrivalOrder()));
    expect(orders.every((order, i) => i === 0 || order > orders[i - 1]!)).toBe(true);
  });
});

describe("the hold-back for an earlier message still on its way", () => {
  const now = 1_000_000;
  it("lasts until the hold after the platform stamped the message, never longer than the hold from now", () => {
    expect(holdUntil({ key: "1", sentAt: now - 100 }, 300, now)).toBe(now + 200);
    expect(holdUntil({ key: "1", sentAt: now - 5_000 }, 300, now)).toBe(now);
    // a clock ahead of this host's
    expect(holdUntil({ key: "1", sentAt: now + 60_000 }, 300, now)).toBe(now + 300);
  });

  it("is none where the platform delivers in order, or when turned off", () => {
    expect(holdUntil({ key: "1" }, 300, now)).toBeUndefined();
    expect(holdUntil(undefined, 300, now)).toBeUndefined();
    expect(holdUntil({ key: "1", sentAt: now }, 0, now)).toBeUndefined();
  });
});
