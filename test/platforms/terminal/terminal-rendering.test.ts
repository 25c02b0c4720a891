import { describe, expect, it } from "vitest";
import { terminalText } from "../../../src/platforms/terminal/terminal-text.js";
import { reply } from "../../fakes/fake-openai.js";
import { ptyTest } from "../../support/terminal-pty.js";

const ANSWER = [
  "## Result",
  "",
  "The **answer** is `12.57`, as <@U123> asked in <#C1|general>:",
  "- a list item long enough that it has to wrap around the edge of a narrow terminal",
  "- two",
].join("\n");

describe("what the terminal shows, in a real pseudo-terminal 50 columns wide", () => {
  ptyTest(
    "renders /help without chat-app marks or what the terminal lacks, and an answer's Markdown as styling, wrapped at word boundaries",
    async ({ model, startBot }) => {
      model.script(reply.text(ANSWER));
      const terminal = startBot(50);
      await terminal.waitFor((screen) => screen.includes("you> "), "the prompt");
      terminal.type("/help\r");
      await terminal.waitFor((screen) => screen.includes("/attach PATH"), "the help");
      terminal.type("what is it?\r");
      await terminal.waitFor((screen) => screen.includes("• two"), "the answer");
      terminal.type("\x04");
      await terminal.exited;

      const screen = terminal.screen();
      expect(screen).toContain("/tools list — Every tool and whether it is on");
      for (const raw of ["`", "**", "_(", "(admins)", "only you see it", "ignore-user", "channel-add"]) expect(screen).not.toContain(raw);
      expect(screen).toContain("The answer is 12.57, as @U123 asked in #general:");
      expect(terminal.raw()).toContain("\x1b[1manswer\x1b[22m");
      expect(terminal.raw()).toContain("\x1b[36m12.57\x1b[39m");
      expect(terminal.raw()).toContain("\x1b[1mResult\x1b[22m");
      // The list item wraps under its own text, at a space, within 50 columns.
      expect(screen).toMatch(/\n• a list item long enough that it has to wrap\n {2}around the edge of a narrow terminal\n/);
      for (const line of screen.split("\n")) expect([...line].length).toBeLessThanOrEqual(50);
    },
  );
});

describe("the terminal's Markdown when piped", () => {
  it("is plain text: no escape sequences, no marks, no wrapping", () => {
    expect(terminalText(ANSWER, { styled: false })).toBe(
      [
        "Result",
        "",
        "The answer is 12.57, as @U123 asked in #general:",
        "• a list item long enough that it has to wrap around the edge of a narrow terminal",
        "• two",
      ].join("\n"),
    );
  });
});

describe("src/platforms/terminal/terminal-text.ts: each block form and inline mark, and prose as it is", () => {
  // Plain prose skips the patterns (one test each for block and inline marks): every form must still be recognised.
  const cases: [string, string][] = [
    ["# Heading", "Heading"],
    ["  - indented bullet", "  • indented bullet"],
    ["+ plus bullet", "• plus bullet"],
    ["12) numbered", "12) numbered"],
    ["> quoted *words*", "│ quoted *words*"],
    ["***", "─".repeat(40)],
    ["__strong__ and **bold**", "strong and bold"],
    ["only __strong__ here", "only strong here"],
    ["see [the docs](https://example.com/a) or <https://example.com/b|b>", "see the docs (https://example.com/a) or b (https://example.com/b)"],
    ["ask <!here> or <@U1> in <#C2|general>", "ask @here or @U1 in #general"],
    ["run `x` now", "run x now"],
    ["done _(2 steps)_", "done (2 steps)"],
    ["Plain prose, with 3 numbers: 1, 2 and 3.", "Plain prose, with 3 numbers: 1, 2 and 3."],
    ["a - b + c > d # e", "a - b + c > d # e"],
  ];
  it.each(cases)("renders %j as %j when piped", (markdown, shown) => {
    expect(terminalText(markdown, { styled: false })).toBe(shown);
  });
});
