import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

async function waitUntil(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** kill -9 of the process running a scheduled task (issue 26): the run is recorded interrupted, and not run again. */
describe("a hard kill in the middle of a scheduled run", () => {
  const scratch = useModelAndFolder("agent-bot-killed-run-");
  const env = () => ({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "bot.sqlite") });
  const runs = () => {
    const db = new Database(join(scratch.dir, "bot.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT status, detail FROM scheduled_runs").all() as { status: string; detail: string | null }[];
    } finally {
      db.close();
    }
  };

  it("leaves the run interrupted and recorded after the restart, without running it twice", async () => {
    scratch.model.script(reply.hang());
    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.write("/schedule add in 1 second | Summarise the day\n");
    await bot.waitForOutput(/⏰ Scheduled task/, 20_000);
    await waitUntil(() => scratch.model.chatRequests.length === 1);
    bot.process.kill("SIGKILL");
    expect((await bot.exited).signal).toBe("SIGKILL");
    expect(runs()).toEqual([{ status: "running", detail: null }]);

    scratch.model.otherwise(reply.text("back"));
    const restarted = startChildBot(env(), scratch.dir);
    // The start-up marks it (asynchronously): ask again until the list shows it, within a bound.
    const deadline = Date.now() + 20_000;
    while (!/last: interrupted/.test(restarted.stdout())) {
      if (Date.now() > deadline) throw new Error(`the list never showed the run interrupted:\n${restarted.stdout()}`);
      restarted.process.stdin.write("/schedule list\n");
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    restarted.process.stdin.end();
    expect((await restarted.exited).code).toBe(0);
    expect(runs()).toEqual([{ status: "interrupted", detail: "the process running it stopped" }]);
    expect(restarted.stdout()).not.toContain("⏰");
    expect(scratch.model.chatRequests).toHaveLength(1);
  });
});
