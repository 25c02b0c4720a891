import { describe, expect, it } from "vitest";
import type { ModelMessage, ToolSpec } from "../../src/agent/model.js";
import { completionJson } from "../../src/agent/providers/openai/request.js";

const tools: ToolSpec[] = [
  {
    name: "calculator",
    description: "Evaluates an expression.",
    jsonSchema: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  },
  { name: "clock", description: 'Tells the time "now".', jsonSchema: { type: "object", properties: {} } },
];
const toolsAsSent = tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema } }));

describe("src/agent/providers/openai/request.ts: completionJson", () => {
  it("is the JSON chat.completions.create sends: messages, tools, model, stream, in that order", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "You are helpful.\nBe brief." },
      { role: "user", content: 'What is "6*7"? ✨ \u0000 \\ done' },
    ];
    expect(completionJson({ messages, tools }, "gpt-4o-mini", false)).toBe(
      JSON.stringify({ messages, tools: toolsAsSent, model: "gpt-4o-mini", stream: false }),
    );
  });

  it("sends tool calls and their results in the API's shape, with tool_choice, stop, max_tokens and streamed usage", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "add" },
      { role: "assistant", content: null, toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"1+1"}' }] },
      { role: "tool", toolCallId: "call_1", content: "2" },
      { role: "assistant", content: "It is 2." },
    ];
    const expected = {
      messages: [
        { role: "user", content: "add" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "calculator", arguments: '{"expression":"1+1"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "2" },
        { role: "assistant", content: "It is 2." },
      ],
      tools: toolsAsSent,
      tool_choice: "none",
      stop: ["Observation:"],
      max_tokens: 120,
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
    };
    expect(completionJson({ messages, tools, toolChoice: "none", stop: ["Observation:"], maxTokens: 120 }, "m", true)).toBe(JSON.stringify(expected));
  });

  it("sends images as data URLs and leaves out an empty tool list", () => {
    const messages: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image", mediaType: "image/png", base64: "iVBORw0KGgo=" },
        ],
      },
    ];
    expect(completionJson({ messages, tools: [] }, "m", false)).toBe(
      JSON.stringify({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this?" },
              { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            ],
          },
        ],
        model: "m",
        stream: false,
      }),
    );
  });

  it("gives the right bytes for each call of a turn as its messages grow, and for another model", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "q" },
    ];
    const first = completionJson({ messages, tools }, "a", false);
    messages.push(
      { role: "assistant", content: "thinking", toolCalls: [{ id: "c", name: "clock", arguments: "{}" }] },
      { role: "tool", toolCallId: "c", content: "noon" },
    );
    const second = completionJson({ messages, tools }, "b", true);
    expect(JSON.parse(first)).toEqual({ messages: [messages[0], messages[1]], tools: toolsAsSent, model: "a", stream: false });
    expect(JSON.parse(second)).toEqual({
      messages: [
        messages[0],
        messages[1],
        { role: "assistant", content: "thinking", tool_calls: [{ id: "c", type: "function", function: { name: "clock", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c", content: "noon" },
      ],
      tools: toolsAsSent,
      model: "b",
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
