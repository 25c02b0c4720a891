import { describe, expect, it } from "vitest";
import { OutputParseError, parseAgentOutput } from "../../src/agent/react-parser.js";

describe("reading a text-protocol model's output", () => {
  it("reads a ```json fenced action", () => {
    const text = 'Thought: I need the tool.\n```json\n{"action": "circumference", "action_input": {"radius": 7.81}}\n```';
    expect(parseAgentOutput(text)).toEqual({ kind: "action", tool: "circumference", input: { radius: 7.81 } });
  });

  it("reads a fence with no language and one in upper case", () => {
    expect(parseAgentOutput('```\n{"action": "get_time", "action_input": {}}\n```')).toEqual({
      kind: "action",
      tool: "get_time",
      input: {},
    });
    expect(parseAgentOutput('```JSON\n{"action": "calculator", "action_input": "2+2"}\n```')).toEqual({
      kind: "action",
      tool: "calculator",
      input: "2+2",
    });
  });

  it("reads bare JSON with prose around it", () => {
    const text = 'Sure! {"action": "calculator", "action_input": {"expression": "{1+1}"}} Let me check.';
    expect(parseAgentOutput(text)).toEqual({ kind: "action", tool: "calculator", input: { expression: "{1+1}" } });
  });

  it("takes a Final Answer blob as the answer", () => {
    const text = '```json\n{"action": "Final Answer", "action_input": "It is 49.07."}\n```';
    expect(parseAgentOutput(text)).toEqual({ kind: "final", output: "It is 49.07." });
  });

  it("reads the MRKL form, ignoring an observation the model made up", () => {
    const text = "Thought: Do I need to use a tool? Yes\nAction: calculator\nAction Input: 7.5 * 0.86\nObservation: 6.45";
    expect(parseAgentOutput(text)).toEqual({ kind: "action", tool: "calculator", input: "7.5 * 0.86" });
  });

  it("reads MRKL input given as JSON, and a quoted one", () => {
    expect(parseAgentOutput('Action: hypotenuse\nAction Input: {"adjacent_side": 3, "angle": 60}')).toEqual({
      kind: "action",
      tool: "hypotenuse",
      input: { adjacent_side: 3, angle: 60 },
    });
    expect(parseAgentOutput("Action: wikipedia\nAction Input: 'Alan Turing'")).toEqual({
      kind: "action",
      tool: "wikipedia",
      input: "Alan Turing",
    });
  });

  it("reads a MRKL final answer", () => {
    expect(parseAgentOutput("Thought: I now know the final answer\nFinal Answer: 6 units")).toEqual({
      kind: "final",
      output: "6 units",
    });
  });

  it("treats plain text with no action as the final answer", () => {
    expect(parseAgentOutput("Hello! How can I help you today?")).toEqual({
      kind: "final",
      output: "Hello! How can I help you today?",
    });
  });

  it("throws OutputParseError for a JSON action that stops before a value", () => {
    expect(() => parseAgentOutput('```json\n{"action": "calculator", "action_input": {"expression":\n```')).toThrow(
      /the JSON blob could not be read: it stops after ":", before its value/,
    );
    expect(() => parseAgentOutput('{"action": "calculator", "action_input": ')).toThrow(OutputParseError);
  });

  it("closes the quote and the brackets a blob left open", () => {
    expect(parseAgentOutput('```json\n{"action": "calculator", "action_input": {"expression": "2+2"\n```')).toEqual({
      kind: "action",
      tool: "calculator",
      input: { expression: "2+2" },
    });
    expect(parseAgentOutput('{"action": "wikipedia", "action_input": {"query": "Alan Turing')).toEqual({
      kind: "action",
      tool: "wikipedia",
      input: { query: "Alan Turing" },
    });
  });

  it("throws OutputParseError for a JSON blob without an action and for empty output", () => {
    expect(() => parseAgentOutput('```json\n{"answer": 42}\n```')).toThrow(/needs an "action" key/);
    expect(() => parseAgentOutput("   ")).toThrow(OutputParseError);
  });
});
