import { describe, expect, it } from "vitest";
import { describeTime } from "../../src/tools/builtin/time.js";

describe("the time tool", () => {
  const instant = new Date("2026-03-15T12:30:00Z");

  it("tells the time in the asked time zone", () => {
    const text = describeTime(instant, "Asia/Tokyo");
    expect(text).toContain("21:30:00");
    expect(text).toContain("Sunday, 15 March 2026");
    expect(text).toContain("Asia/Tokyo");
    expect(text).toContain("2026-03-15T12:30:00.000Z");
  });

  it("defaults to the server's time zone", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(describeTime(instant)).toContain(zone);
  });

  it("explains an unknown time zone", () => {
    expect(() => describeTime(instant, "Mars/Olympus")).toThrow(/unknown time zone "Mars\/Olympus"; use an IANA name/);
  });
});
