import { F, final, invalid, type CorpusCase } from "./types.js";

/**
 * Issue 22: a JSON blob with the agent format's own keys but no "action" key, after prose,
 * reached the user as the answer. It goes back to the model; JSON an answer shows stays the answer.
 */
export const keylessBlobCases: CorpusCase[] = [
  // langchain-ai/langchain tests/unit_tests/agents/output_parsers/test_react_json_single_input.py, its "action" key left out after a sentence
  {
    name: "action_input without action, after a sentence",
    text: `I'll look that up for you.\n${F}\n{\n    "action_input": "what is the temperature in SF?"\n}\n${F}`,
    expect: invalid,
  },
  // huggingface/agents-course#103: the course's own blobs had one of the two keys written in place of the other
  {
    name: "thought and action_input without action, after prose",
    text: `Let me check the weather first.\n${F}json\n{"thought": "I need the current weather", "action_input": {"location": "Paris"}}\n${F}`,
    expect: invalid,
  },
  // written for this corpus: the structured-chat form (Action: then the blob), the tool's key renamed
  {
    name: "tool_input without a tool key, after a Thought and prose",
    text: `Thought: I should search.\nHere is my request:\n${F}json\n{"tool_code": "web_search", "tool_input": "Ada Lovelace"}\n${F}`,
    expect: invalid,
  },
  // written for this corpus: raw line breaks in the input as well, so only a repair reads it
  {
    name: "action_input without action, with raw line breaks",
    text: `Running the query now:\n{"action_input": "SELECT name\nFROM users"}`,
    expect: invalid,
  },
  // written for this corpus: JSON the user asked for, after prose, is the answer
  {
    name: "a config file in an answer stays the answer",
    text: `Here is a minimal config:\n${F}json\n{"port": 8080, "input": "stdin"}\n${F}`,
    expect: final(`Here is a minimal config:\n${F}json\n{"port": 8080, "input": "stdin"}\n${F}`),
  },
  // written for this corpus: the final answer under a key of its own, after prose, is not the agent's format either
  {
    name: "final_answer key without action, after prose",
    text: `Sure, here it is:\n${F}json\n{"final_answer": "Paris is the capital of France."}\n${F}`,
    expect: invalid,
  },
];
