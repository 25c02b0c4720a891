import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { ptyTest as it } from "../../support/terminal-pty.js";

/** Ctrl-C in an interactive terminal, pressed as keys in a real pseudo-terminal (script(1)). */
describe("Ctrl-C in the terminal", () => {
  /** The turns' statuses in the bot's database, oldest first. */
  const statuses = (dir: string) => {
    const db = new Database(join(dir, "bot.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT status FROM turns ORDER BY started_at").pluck().all();
    } finally {
      db.close();
    }
  };
  const prompts = (screen: string) => screen.split("you> ").length - 1;

  it("stops the running turn at once and keeps the session; at the prompt it quits through the normal shutdown", async ({ model, dir, startBot }) => {
    model.script(reply.hang(), reply.text("The second answer."));
    const terminal = startBot();
    await terminal.waitFor((screen) => prompts(screen) === 1, "the prompt");
    terminal.type("a question that hangs\r");
    await terminal.waitFor(() => model.chatRequests.length === 1, "the model call");

    terminal.type("\x03");
    await terminal.waitFor((screen) => screen.includes("bot: ⚠️ Stopped."), "the turn to stop");
    await terminal.waitFor((screen) => prompts(screen) === 2, "the prompt again");
    terminal.type("a second question\r");
    await terminal.waitFor((screen) => screen.includes("bot: The second answer."), "the second answer");
    await terminal.waitFor((screen) => prompts(screen) === 3, "the prompt after the answer");

    terminal.type("\x03");
    expect(await terminal.exited).toBe(0);
    expect(terminal.screen()).not.toMatch(/restarted|Error|at .*\.js:\d+/);
    expect(statuses(dir)).toEqual(["interrupted", "answered"]);
  });

  it("quits when pressed twice within a second during a turn", async ({ model, dir, startBot }) => {
    model.script(reply.hang());
    const terminal = startBot();
    await terminal.waitFor((screen) => prompts(screen) === 1, "the prompt");
    terminal.type("a question that hangs\r");
    await terminal.waitFor(() => model.chatRequests.length === 1, "the model call");

    terminal.type("\x03\x03");
    expect(await terminal.exited).toBe(0);
    expect(statuses(dir)).toEqual(["interrupted"]);
  });
});
