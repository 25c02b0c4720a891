import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { useModelAndFolder } from "../../support/model-and-folder.js";
import { startPtyBot, type PtyBot } from "../../support/terminal-pty.js";

/** Ctrl-C in an interactive terminal, pressed as keys in a real pseudo-terminal (script(1)). */
describe("Ctrl-C in the terminal", () => {
  const scratch = useModelAndFolder("agent-bot-ctrl-c-");
  let bot: PtyBot | undefined;
  afterEach(async () => {
    if (bot && bot.process.exitCode === null) {
      bot.process.kill("SIGKILL");
      await bot.exited;
    }
    bot = undefined;
  });

  const start = () => {
    bot = startPtyBot({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(scratch.dir, "bot.sqlite") }, scratch.dir);
    return bot;
  };
  const statuses = () => {
    const db = new Database(join(scratch.dir, "bot.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT status FROM turns ORDER BY started_at").pluck().all();
    } finally {
      db.close();
    }
  };
  const prompts = (screen: string) => screen.split("you> ").length - 1;

  it("stops the running turn at once and keeps the session; at the prompt it quits through the normal shutdown", async () => {
    scratch.model.script(reply.hang(), reply.text("The second answer."));
    const terminal = start();
    await terminal.waitFor((screen) => prompts(screen) === 1, "the prompt");
    terminal.type("a question that hangs\r");
    await terminal.waitFor(() => scratch.model.chatRequests.length === 1, "the model call");

    terminal.type("\x03");
    await terminal.waitFor((screen) => screen.includes("bot: ⚠️ Stopped."), "the turn to stop");
    await terminal.waitFor((screen) => prompts(screen) === 2, "the prompt again");
    terminal.type("a second question\r");
    await terminal.waitFor((screen) => screen.includes("bot: The second answer."), "the second answer");
    await terminal.waitFor((screen) => prompts(screen) === 3, "the prompt after the answer");

    terminal.type("\x03");
    expect(await terminal.exited).toBe(0);
    expect(terminal.screen()).not.toMatch(/restarted|Error|at .*\.js:\d+/);
    expect(statuses()).toEqual(["interrupted", "answered"]);
  });

  it("quits when pressed twice within a second during a turn", async () => {
    scratch.model.script(reply.hang());
    const terminal = start();
    await terminal.waitFor((screen) => prompts(screen) === 1, "the prompt");
    terminal.type("a question that hangs\r");
    await terminal.waitFor(() => scratch.model.chatRequests.length === 1, "the model call");

    terminal.type("\x03\x03");
    expect(await terminal.exited).toBe(0);
    expect(statuses()).toEqual(["interrupted"]);
  });
});
