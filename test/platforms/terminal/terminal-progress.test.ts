import { describe, expect } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { ptyTest as it } from "../../support/terminal-pty.js";

/** Progress in a real pseudo-terminal (script(1)): the thinking line, and typing while an answer streams. */
describe("the terminal while the bot works", () => {
  it("shows thinking… until the answer starts; a question typed during a streamed answer stays out of it and is shown again before its own answer", async ({
    model,
    startBot,
  }) => {
    model.script(
      reply.delayed(300, reply.streamed(["The first ", "answer comes ", "in pieces, ", "slowly, ", "to its end."], { delayMs: 250 })),
      reply.text("The second answer."),
    );
    const terminal = startBot(100);
    await terminal.waitFor((screen) => screen.includes("you> "), "the prompt");
    terminal.type("first question\r");
    await terminal.waitFor((screen) => screen.includes("bot: The first"), "the answer to start");
    terminal.type("second question\r");
    await terminal.waitFor((screen) => screen.includes("bot: The second answer."), "the second answer");
    terminal.type("\x04");
    await terminal.exited;

    const raw = terminal.raw();
    // Dim, on its own line, and cleared (carriage return, erase line) before the answer is printed.
    expect(raw).toMatch(/\x1b\[2m {2}thinking…\x1b\[22m\r\x1b\[2Kbot: The first/);
    const screen = terminal.screen();
    expect(screen).toContain("bot: The first answer comes in pieces, slowly, to its end.\n");
    const firstAnswer = screen.indexOf("bot: The first");
    const shownAgain = screen.indexOf("you> second question\n");
    expect(shownAgain).toBeGreaterThan(firstAnswer);
    expect(screen.indexOf("bot: The second answer.")).toBeGreaterThan(shownAgain);
    expect(screen.split("second question").length - 1).toBe(1);
  });
});
