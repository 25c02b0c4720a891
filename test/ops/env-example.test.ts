import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { reply } from "../fakes/fake-openai.js";
import { PROJECT_ROOT, startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

const EXAMPLE = join(PROJECT_ROOT, ".env.example");

describe("cp .env.example .env", () => {
  const scratch = useModelAndFolder("agent-bot-env-example-");

  it("leaves LOG_LEVEL unset, so each platform keeps its own default", () => {
    const example = parseEnv(readFileSync(EXAMPLE, "utf8"));
    expect(example.LOG_LEVEL).toBe("");
    expect(loadConfig({ ...example, OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }).LOG_LEVEL).toBeUndefined();
  });

  it("keeps the terminal quiet: a question and its answer, no log lines", async () => {
    copyFileSync(EXAMPLE, join(scratch.dir, ".env"));
    scratch.model.otherwise(reply.text("quiet here"));
    // The model's address comes from the environment, which .env does not override.
    const bot = startChildBot({ OPENAI_BASE_URL: scratch.model.url }, scratch.dir);
    bot.process.stdin.end("hello\n");
    expect((await bot.exited).code).toBe(0);
    expect(bot.stdout()).toContain("bot: quiet here");
    expect(bot.stderr()).toBe("");
  });
});
