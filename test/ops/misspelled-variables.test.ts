import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { misspelledVariables } from "../../src/config/misspelled-variables.js";
import { formatVerdicts, runDoctor } from "../../src/ops/doctor.js";
import { reply } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

describe("a misspelled variable", () => {
  const scratch = useModelAndFolder("agent-bot-misspelled-");

  it("gets one warning line at start naming the variable meant, and the rest of the environment none", async () => {
    scratch.model.otherwise(reply.text("hello there"));
    const bot = startChildBot(
      {
        OPENAI_BASE_URL: scratch.model.url,
        DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
        OPENAI_MODLE: "gpt-4o",
        LOG_LEVL: "debug",
        // Not the bot's, and not close to any of its names: no word about them.
        NODE_ENV: "production",
        GITHUB_TOKEN: "ghp-1",
        MAX_WORKERS: "4",
        OPENAI_ORG_ID: "org-1",
        SLACK_TOKEN_FOR_CI: "x",
      },
      scratch.dir,
    );
    bot.process.stdin.end("hi\n");
    expect((await bot.exited).code).toBe(0);
    expect(bot.stdout()).toContain("bot: hello there");
    expect(bot.stderr().trimEnd().split("\n")).toEqual([
      "warning: LOG_LEVL is not a variable of the bot and is ignored; did you mean LOG_LEVEL?",
      "warning: OPENAI_MODLE is not a variable of the bot and is ignored; did you mean OPENAI_MODEL?",
    ]);
  });

  it("is found by edit distance among names that start like the bot's, whatever their case", () => {
    expect(
      misspelledVariables({
        SLACK_BOT_TOKN: "xoxb-1",
        DISCORD_ALLOW_DM: "false",
        openai_model: "gpt-4o",
        TOOLS_DIRS: "./tools",
        TURN_TIMEOUT: "60000",
        OPENAI_MODEL: "gpt-4o",
        PATH: "/bin",
        DATABASE_HOST: "db",
        SLACK_TOKEN: "xoxb-2",
        LC_ALL: "C",
      }),
    ).toEqual([
      "DISCORD_ALLOW_DM is not a variable of the bot and is ignored; did you mean DISCORD_ALLOW_DMS?",
      "SLACK_BOT_TOKN is not a variable of the bot and is ignored; did you mean SLACK_BOT_TOKEN?",
      "TOOLS_DIRS is not a variable of the bot and is ignored; did you mean TOOLS_DIR?",
      "TURN_TIMEOUT is not a variable of the bot and is ignored; did you mean TURN_TIMEOUT_MS?",
      "openai_model is not a variable of the bot and is ignored; did you mean OPENAI_MODEL?",
    ]);
  });

  it("is a warning of npm run doctor too", async () => {
    const verdicts = await runDoctor({
      OPENAI_BASE_URL: scratch.model.url,
      OPENAI_MODEL: "fake-model",
      OPENAI_MODLE: "x",
      TOOLS_DIR: "none",
      DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
    });
    expect(formatVerdicts(verdicts)).toContain("⚠ configuration: OPENAI_MODLE is not a variable of the bot and is ignored; did you mean OPENAI_MODEL?");
    // Also beside a configuration that fails, where the misspelling may be the reason.
    const failed = await runDoctor({ AGENT_PROTOCOL: "telepathy", AGENT_PROTOKOL: "tools" });
    expect(failed.map((v) => v.status)).toEqual(["fail", "warning"]);
    expect(failed[1]!.detail).toBe("AGENT_PROTOKOL is not a variable of the bot and is ignored; did you mean AGENT_PROTOCOL?");
  });
});
