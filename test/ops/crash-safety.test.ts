import Database from "better-sqlite3";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/sqlite/database.js";
import { reply } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

const waitUntil = async (condition: () => boolean) => {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("a hard kill in the middle of a turn", () => {
  const scratch = useModelAndFolder("agent-bot-crash-");

  const env = () => ({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "bot.sqlite") });

  it.each([
    ["while the model thinks", "model"],
    ["after a tool step ran", "tool"],
  ])("%s leaves a clean database: the turn is marked interrupted and no half exchange is remembered", async (_name, moment) => {
    // a finished exchange first, so there is memory to protect
    scratch.model.script(reply.text("first answer"));
    if (moment === "tool") scratch.model.script(reply.toolCalls({ name: "calculator", args: { expression: "2+2" } }), reply.hang());
    else scratch.model.script(reply.hang());

    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.write("first question\n");
    await bot.waitForOutput(/bot: first answer/);
    bot.process.stdin.write("doomed question\n");
    await waitUntil(() => scratch.model.chatRequests.length === (moment === "tool" ? 3 : 2));
    bot.process.kill("SIGKILL");
    expect((await bot.exited).signal).toBe("SIGKILL");

    // the file opens and migrates cleanly as it was left
    const raw = openDatabase(join(scratch.dir, "bot.sqlite"));
    expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(raw.prepare("SELECT status FROM turns ORDER BY started_at").pluck().all()).toEqual(["answered", "running"]);
    // a turn's steps are written with its end, in one transaction: nothing of the killed turn is half there
    expect(raw.prepare("SELECT COUNT(*) FROM turn_steps").pluck().get()).toBe(0);
    raw.close();

    // the restarted bot marks the turn interrupted and remembers only whole exchanges
    scratch.model.otherwise(reply.text("after restart"));
    const restarted = startChildBot(env(), scratch.dir);
    restarted.process.stdin.end("are you back?\n");
    expect((await restarted.exited).code).toBe(0);
    expect(restarted.stdout()).toContain("bot: after restart");
    const sent = scratch.model.chatRequests
      .at(-1)!
      .body.messages.slice(1)
      .map((m: any) => m.content);
    expect(sent).toEqual(["first question", "first answer", "are you back?"]);

    const db = new Database(join(scratch.dir, "bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM turns ORDER BY started_at").pluck().all()).toEqual(["answered", "interrupted", "answered"]);
    expect(db.prepare("SELECT COUNT(*) FROM messages WHERE text = 'doomed question'").pluck().get()).toBe(0);
    db.close();
  });
});

describe("a polite stop (SIGTERM)", () => {
  const scratch = useModelAndFolder("agent-bot-sigterm-");

  it("lets a running turn finish within the grace period, and stops one that would not", async () => {
    scratch.model.script(reply.delayed(300, reply.text("finished in time")), reply.hang());
    const env = { OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "bot.sqlite"), SHUTDOWN_GRACE_MS: "1500" };

    const quick = startChildBot(env, scratch.dir);
    quick.process.stdin.write("quick one\n");
    await waitUntil(() => scratch.model.chatRequests.length === 1);
    quick.process.kill("SIGTERM");
    expect((await quick.exited).code).toBe(143);
    expect(quick.stdout()).toContain("bot: finished in time");

    const stuck = startChildBot(env, scratch.dir);
    stuck.process.stdin.write("stuck one\n");
    await waitUntil(() => scratch.model.chatRequests.length === 2);
    stuck.process.kill("SIGTERM");
    expect((await stuck.exited).code).toBe(143);
    expect(stuck.stdout()).toContain("bot: ⚠️ The bot restarted before I could finish this. Please ask again in a minute.");
    const db = new Database(join(scratch.dir, "bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM turns ORDER BY started_at").pluck().all()).toEqual(["answered", "interrupted"]);
    db.close();
  });
});

describe("several bot processes writing one database", () => {
  const scratch = useModelAndFolder("agent-bot-writers-");

  it("answer every turn without a busy error reaching a user", async () => {
    // every second request answers, so each turn writes a step, then an exchange
    let n = 0;
    scratch.model.otherwise((req) => (++n % 2 === 1 ? reply.toolCalls({ name: "get_time", args: {} })(req) : reply.text("done")(req)));
    // Summaries off: this counts every model request and every row of turns (summaries have tests of their own).
    const env = {
      OPENAI_BASE_URL: scratch.model.url,
      OPENAI_MAX_RETRIES: "0",
      DATABASE_PATH: join(scratch.dir, "shared.sqlite"),
      RATE_LIMIT_PER_USER: "100",
      MEMORY_SUMMARY: "off",
    };
    const questions = Array.from({ length: 15 }, (_, i) => `question ${i}`).join("\n") + "\n";
    const bots = [startChildBot({ ...env, INSTANCE_ID: "one" }, scratch.dir), startChildBot({ ...env, INSTANCE_ID: "two" }, scratch.dir)];
    for (const bot of bots) bot.process.stdin.end(questions);
    const exits = await Promise.all(bots.map((bot) => bot.exited));

    // A bot that exits otherwise says why on stderr: shown with the failure.
    expect(
      exits.map((e) => e.code),
      bots.map((bot) => bot.stderr()).join("\n"),
    ).toEqual([0, 0]);
    for (const bot of bots) {
      expect(bot.stdout().match(/^bot: /gm)).toHaveLength(15);
      expect(bot.stdout()).not.toMatch(/went wrong|busy|locked/i);
    }
    const db = new Database(join(scratch.dir, "shared.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status, COUNT(*) AS n FROM turns GROUP BY status").all()).toEqual([{ status: "answered", n: 30 }]);
    expect(db.prepare("SELECT COUNT(*) FROM messages").pluck().get()).toBe(60);
    db.close();
  });
});
