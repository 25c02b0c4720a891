import { describe, expect, it } from "vitest";
import { formatStepEnded, formatStepStarted } from "../../src/presenter/step-format.js";
import { threadTitle as threadName } from "../../src/presenter/turn-presenter.js";

describe("thread names", () => {
  it("uses the question's first line, whole when it fits", () => {
    expect(threadName("What is 2+2?\nAnd more details")).toBe("What is 2+2?");
  });

  it("cuts a long question at a word within Discord's 100 characters", () => {
    const name = threadName(`${"circumference ".repeat(12)}end`);
    expect(name.length).toBeLessThanOrEqual(100);
    expect(name).toMatch(/circumference…$/);
  });

  it("names a thread even for a blank question", () => {
    expect(threadName("   \n ")).toBe("Tool steps");
  });
});

describe("step messages", () => {
  it("stay within 2,000 characters however long the arguments and the output are", () => {
    const args = { text: "x".repeat(5_000) };
    const started = formatStepStarted({ type: "tool_started", seq: 1, tool: "shout", args });
    const ended = formatStepEnded({ type: "tool_finished", seq: 1, tool: "shout", args, output: "y\n".repeat(5_000), durationMs: 3 });
    const failed = formatStepEnded({ type: "tool_failed", seq: 1, tool: "shout", args, error: "z".repeat(5_000), durationMs: 3 });
    for (const text of [started, ended, failed]) expect(text.length).toBeLessThan(2_000);
    expect(ended).toMatch(/```\ny\ny/);
    expect(failed).toMatch(/^⚠️ `shout`/);
  });

  it("show a tool name the model invented on one short line, whatever it holds", () => {
    const text = formatStepStarted({ type: "tool_started", seq: 1, tool: `<!channel>\n${"x".repeat(3_000)}\u0000`, args: {} });
    expect(text.length).toBeLessThan(120);
    expect(text).not.toMatch(/\n|\u0000/);
    expect(text).toMatch(/^🔧 `<!channel>x+…` `\{\}` …$/);
  });

  it("keep backticks in arguments from breaking the code span", () => {
    const text = formatStepStarted({ type: "tool_started", seq: 1, tool: "echo", args: { text: "a `b` c" } });
    expect(text).toBe('🔧 `echo` `` {"text":"a `b` c"} `` …');
  });
});
