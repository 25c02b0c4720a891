import { describe, expect, it } from "vitest";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { circumferenceTool } from "../../src/tools/builtin/circumference.js";
import { hypotenuseTool } from "../../src/tools/builtin/hypotenuse.js";
import { silentLogger } from "../../src/log.js";

const ctx: ToolContext = {
  signal: new AbortController().signal,
  request: { platform: "test", workspaceId: "w", channelId: "c", userId: "u" },
  logger: silentLogger(),
  llm: async () => "",
};

async function call(tool: typeof hypotenuseTool, raw: unknown) {
  const parsed = tool.parseArgs(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return tool.run(parsed.value, ctx);
}

describe("the circumference tool", () => {
  it("returns 2πr", async () => {
    expect(Number(await call(circumferenceTool, { radius: 7.81 })).toFixed(2)).toBe("49.07");
  });

  it("accepts a bare number from a text-protocol model", async () => {
    expect(await call(circumferenceTool, "1")).toBe(String(Number((2 * Math.PI).toPrecision(12))));
  });

  it("rejects a negative radius", () => {
    expect(circumferenceTool.parseArgs({ radius: -1 }).ok).toBe(false);
  });
});

describe("the hypotenuse tool", () => {
  it("uses the angle in degrees: adjacent 3 at 60° gives 6", async () => {
    expect(await call(hypotenuseTool, { adjacent_side: 3, angle: 60 })).toBe("6");
  });

  it("takes the opposite side with an angle", async () => {
    expect(await call(hypotenuseTool, { opposite_side: 5, angle: 30 })).toBe("10");
  });

  it("takes two sides", async () => {
    expect(await call(hypotenuseTool, { adjacent_side: 3, opposite_side: 4 })).toBe("5");
  });

  it("says what is missing when only one value is given", async () => {
    await expect(call(hypotenuseTool, { adjacent_side: 3 })).rejects.toThrow(
      /need two of adjacent_side, opposite_side and angle \(in degrees\); got only adjacent_side/,
    );
    await expect(call(hypotenuseTool, {})).rejects.toThrow(/got none/);
  });

  it("refuses an angle outside 0-90 degrees", async () => {
    await expect(call(hypotenuseTool, { adjacent_side: 3, angle: 90 })).rejects.toThrow(/between 0 and 90/);
  });
});
