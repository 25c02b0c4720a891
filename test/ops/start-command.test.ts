import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/child-bot.js";

const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), "utf8");

describe("the start command", () => {
  it("is the same in the container as with npm start: node, its flags, the built bot", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start!.split(/\s+/);
    const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(cmd, "the Dockerfile's CMD in exec form").toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(start);
    expect(start.at(-1)).toBe("dist/main.js");
  });
});
