import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { startChildBot } from "../../support/child-bot.js";
import { useModelAndFolder } from "../../support/model-and-folder.js";

/** Scheduled tasks in the terminal (issue 26): a session runs its tasks while it is open. */
describe("the terminal's scheduled tasks", () => {
  const scratch = useModelAndFolder("agent-bot-terminal-schedules-");

  it("runs a task 2 seconds away with its step and answer, then shows it in the history", async () => {
    scratch.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.text("About 12.57."));
    const bot = startChildBot(
      { OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "data/bot.sqlite") },
      scratch.dir,
    );
    try {
      // Piped, the terminal prints plain text: the id without its code span.
      bot.process.stdin.write("/schedule add in 2 seconds | circumference for radius 2?\n");
      await bot.waitForOutput(/Scheduled ([0-9a-f]{8}) \(once, UTC\): circumference for radius 2\?/, 20_000);
      const id = /Scheduled ([0-9a-f]{8})/.exec(bot.stdout())?.[1];
      await bot.waitForOutput(/bot: About 12\.57\./, 20_000);
      expect(bot.stdout()).toContain(`bot: ⏰ Scheduled task ${id} by`);
      expect(bot.stdout()).toMatch(/✅ circumference \{"radius":2\} → 12\.566/);
      bot.process.stdin.write(`/schedule history ${id}\n`);
      await bot.waitForOutput(/· ok · \d+ tokens/, 20_000);
    } finally {
      bot.process.stdin.end();
    }
    expect((await bot.exited).code).toBe(0);
  });
});
