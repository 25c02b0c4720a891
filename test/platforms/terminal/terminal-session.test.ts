import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { startChildBot } from "../../support/child-bot.js";
import { useModelAndFolder } from "../../support/model-and-folder.js";

describe("the terminal adapter, run as the bot's own process", () => {
  const scratch = useModelAndFolder("agent-bot-terminal-");

  const env = () => ({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "data/bot.sqlite") });

  it("answers a piped question with the tool step and the answer, then exits", async () => {
    scratch.model.script(reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }), (req) => ({
      kind: "message",
      content: `The circumference is about ${Number(req.body.messages.at(-1).content).toFixed(2)}.`,
    }));
    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.end("What is the circumference of a circle of radius 7.81?\n");
    const { code } = await bot.exited;

    expect(code).toBe(0);
    expect(bot.stdout()).toContain('  🔧 circumference {"radius":7.81} …');
    expect(bot.stdout()).toMatch(/ {2}✅ circumference \{"radius":7\.81\} → 49\.0716772491 \(\d+ ms\)/);
    expect(bot.stdout()).toContain("bot: The circumference is about 49.07.");
    expect(existsSync(join(scratch.dir, "data/bot.sqlite"))).toBe(true);
    // A line of the terminal's own input comes once: the turn is recorded, no claim against a second delivery is.
    const db = new Database(join(scratch.dir, "data/bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM turns").pluck().all()).toEqual(["answered"]);
    expect(db.prepare("SELECT COUNT(*) FROM processed_events").pluck().get()).toBe(0);
    db.close();
  });

  it("answers a 20-line script without refusing its operator, and shows a failing tool's warning as one readable line", async () => {
    let n = 0;
    scratch.model.otherwise((req) => (++n === 1 ? reply.toolCalls({ name: "calculator", args: { expression: "1/(" } })(req) : reply.text(`answer ${n}`)(req)));
    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.end(Array.from({ length: 20 }, (_, i) => `question ${i + 1}`).join("\n") + "\n");
    expect((await bot.exited).code).toBe(0);

    expect(bot.stdout().match(/^bot: answer \d+$/gm)).toHaveLength(20);
    expect(bot.stdout()).not.toMatch(/faster than I can take them/);
    const warnings = bot
      .stderr()
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(warnings).toEqual([expect.stringMatching(/^warning: tool failed \(calculator: could not evaluate "1\/\(":/)]);
  });

  it("asks before a tool that needs approval and reads the typed yes; at the end of input a request still waiting does not hold the exit", async () => {
    scratch.model.script(
      reply.toolCalls({ name: "calculator", args: { expression: "2+2" } }),
      reply.text("It is 4."),
      reply.toolCalls({ name: "calculator", args: { expression: "3+3" } }),
    );
    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.end("/tools require-approval calculator\nwhat is 2+2?\nmaybe\nyes\nwhat is 3+3?\n");
    expect((await bot.exited).code).toBe(0);

    const out = bot.stdout();
    expect(out).toContain("Each call of calculator here now waits for a person's approval before it runs.");
    expect(out).toMatch(
      / {2}⏸️ Approval needed to run calculator \{"expression":"2\+2"\}\n {2}Asked by \S+; they or an admin may approve or deny it within 5 minutes\.\n {2}Type yes to approve or no to deny\./,
    );
    expect(out).toContain("  Please type yes or no.");
    expect(out).toMatch(/ {2}✅ Approved by \S+: calculator \{"expression":"2\+2"\} runs\./);
    expect(out).toContain("bot: It is 4.");
    // Nobody is left to answer the second request: the bot stops without waiting for it.
    expect(out).toMatch(/ {2}⌛ The bot stopped before a decision: calculator \{"expression":"3\+3"\} did not run\./);
    expect(out).toContain("bot: ⚠️ The bot restarted before I could finish this.");
    const db = new Database(join(scratch.dir, "data/bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM approvals ORDER BY requested_at").pluck().all()).toEqual(["approved", "expired"]);
    db.close();
  });

  it("runs /tools commands and remembers the conversation in SQLite between runs", async () => {
    scratch.model.otherwise(reply.text("noted"));
    const first = startChildBot(env(), scratch.dir);
    first.process.stdin.end("/tools disable calculator\nmy name is Ada\n/tools\n");
    expect((await first.exited).code).toBe(0);
    expect(first.stdout()).toContain("calculator is now disabled here.");
    expect(first.stdout()).toContain("⛔ calculator:");
    expect(scratch.model.toolsOffered(0)).not.toContain("calculator");

    const second = startChildBot(env(), scratch.dir);
    second.process.stdin.end("what is my name?\n");
    expect((await second.exited).code).toBe(0);
    const messages = scratch.model.chatRequests[1]!.body.messages.map((m: any) => m.content);
    expect(messages.slice(1)).toEqual(["my name is Ada", "noted", "what is my name?"]);
    expect(scratch.model.toolsOffered(1)).not.toContain("calculator");
  });

  it("stops cleanly on Ctrl-C during a turn and records the turn as interrupted", async () => {
    scratch.model.script(reply.hang());
    const bot = startChildBot(env(), scratch.dir);
    bot.process.stdin.write("this will hang\n");
    while (scratch.model.chatRequests.length === 0) await new Promise((r) => setTimeout(r, 20));
    bot.process.kill("SIGINT");
    const { code } = await bot.exited;

    expect(code).toBe(130);
    expect(bot.stdout()).toContain("bot: ⚠️ The bot restarted before I could finish this.");
    const db = new Database(join(scratch.dir, "data/bot.sqlite"), { readonly: true });
    expect(db.prepare("SELECT status FROM turns").pluck().all()).toEqual(["interrupted"]);
    db.close();
  });

  it("explains how to configure a model when none is set", async () => {
    const bot = startChildBot({ DATABASE_PATH: join(scratch.dir, "bot.sqlite") }, scratch.dir);
    bot.process.stdin.end();
    const { code } = await bot.exited;

    expect(code).toBe(2);
    expect(bot.stderr()).toContain("set OPENAI_API_KEY (for OpenAI) or OPENAI_BASE_URL");
    expect(bot.stderr()).toContain("OPENAI_BASE_URL=http://127.0.0.1:11434/v1");
  });

  it("names a wrong variable in one clear line, without a stack trace", async () => {
    const bot = startChildBot({ ...env(), AGENT_MAX_ITERATIONS: "lots" }, scratch.dir);
    bot.process.stdin.end();
    const { code } = await bot.exited;

    expect(code).toBe(2);
    expect(bot.stderr()).toContain('AGENT_MAX_ITERATIONS must be a whole number greater than 0 (got "lots")');
    expect(bot.stderr()).not.toMatch(/\n\s+at /);
  });
});
