import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { startChildBot } from "../../support/child-bot.js";
import { useModelAndFolder } from "../../support/model-and-folder.js";

describe("the terminal: search_history over what was said there", () => {
  const scratch = useModelAndFolder("agent-bot-terminal-history-");

  it("finds an earlier exchange of the session (no link: the terminal has none)", async () => {
    scratch.model.script(reply.text("Noted."), reply.toolCalls({ name: "search_history", args: { query: "parking code" } }), reply.text("It was 7731 heron."));
    const bot = startChildBot(
      { OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "data/bot.sqlite") },
      scratch.dir,
    );
    bot.process.stdin.end("the parking code is 7731 heron\nwhat was the parking code?\n");
    expect((await bot.exited).code).toBe(0);

    const result = scratch.model.toolResults(2)[0]!.content;
    expect(result).toContain("the **parking** **code** is 7731 heron");
    expect(result).not.toContain("link:");
    expect(bot.stdout()).toContain("bot: It was 7731 heron.");
  });
});
