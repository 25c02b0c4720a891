import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeOpenAI, reply } from "../../fakes/fake-openai.js";
import { startChildBot } from "../../support/child-bot.js";

describe("the terminal adapter, run as the bot's own process", () => {
  let model: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    model = await FakeOpenAI.start();
    dir = mkdtempSync(join(tmpdir(), "agent-bot-terminal-"));
  });
  afterEach(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ OPENAI_BASE_URL: model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(dir, "data/bot.sqlite") });

  it("answers a piped question with the tool step and the answer, then exits", async () => {
    model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), (req) => ({
      kind: "message",
      content: `The circumference is about ${Number(req.body.messages.at(-1).content).toFixed(2)}.`,
    }));
    const bot = startChildBot(env(), dir);
    bot.process.stdin.end("What is the circumference of a circle of radius 7.81?\n");
    const { code } = await bot.exited;

    expect(code).toBe(0);
    expect(bot.stdout()).toContain('  → circumference {"radius":7.81}');
    expect(bot.stdout()).toMatch(/ {2}← circumference: 49\.0716772491 \(\d+ ms\)/);
    expect(bot.stdout()).toContain("bot: The circumference is about 49.07.");
    expect(existsSync(join(dir, "data/bot.sqlite"))).toBe(true);
  });

  it("runs /tools commands and remembers the conversation in SQLite between runs", async () => {
    model.otherwise(reply.text("noted"));
    const first = startChildBot(env(), dir);
    first.process.stdin.end("/tools disable calculator\nmy name is Ada\n/tools\n");
    expect((await first.exited).code).toBe(0);
    expect(first.stdout()).toContain("`calculator` is now disabled here.");
    expect(first.stdout()).toContain("⛔ `calculator`");
    expect(model.toolsOffered(0)).not.toContain("calculator");

    const second = startChildBot(env(), dir);
    second.process.stdin.end("what is my name?\n");
    expect((await second.exited).code).toBe(0);
    const messages = model.chatRequests[1]!.body.messages.map((m: any) => m.content);
    expect(messages.slice(1)).toEqual(["my name is Ada", "noted", "what is my name?"]);
    expect(model.toolsOffered(1)).not.toContain("calculator");
  });

  it("stops cleanly on Ctrl-C during a turn and records the turn as interrupted", async () => {
    model.script(reply.hang());
    const bot = startChildBot(env(), dir);
    bot.process.stdin.write("this will hang\n");
    while (model.chatRequests.length === 0) await new Promise((r) => setTimeout(r, 20));
    bot.process.kill("SIGINT");
    const { code } = await bot.exited;

    expect(code).toBe(130);
    expect(bot.stdout()).toContain("bot: The bot restarted before I could finish this.");
    const db = new Database(join(dir, "data/bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM turns").pluck().all()).toEqual(["interrupted"]);
    db.close();
  });

  it("explains how to configure a model when none is set", async () => {
    const bot = startChildBot({ DATABASE_PATH: join(dir, "bot.sqlite") }, dir);
    bot.process.stdin.end();
    const { code } = await bot.exited;

    expect(code).toBe(2);
    expect(bot.stderr()).toContain("set OPENAI_API_KEY (for OpenAI) or OPENAI_BASE_URL");
    expect(bot.stderr()).toContain("OPENAI_BASE_URL=http://127.0.0.1:11434/v1");
  });

  it("names a wrong variable in one clear line, without a stack trace", async () => {
    const bot = startChildBot({ ...env(), AGENT_MAX_ITERATIONS: "lots" }, dir);
    bot.process.stdin.end();
    const { code } = await bot.exited;

    expect(code).toBe(2);
    expect(bot.stderr()).toContain("AGENT_MAX_ITERATIONS must be a whole number greater than 0 (got \"lots\")");
    expect(bot.stderr()).not.toMatch(/\n\s+at /);
  });
});
