import { action, F, final, type CorpusCase } from "./types.js";

/** Forms outside the five kinds that local models write often: reasoning tags and function-call JSON. */
export const otherFormCases: CorpusCase[] = [
  // huggingface/smolagents#1915: DeepSeek-R1 thinks inside <think> before its reply
  {
    name: "<think> block before an action blob",
    text: `<think>\nThe user wants 2^16. I should use the calculator rather than guess.\n</think>\n\n${F}json\n{"action": "calculator", "action_input": {"expression": "2^16"}}\n${F}`,
    expect: action("calculator", { expression: "2^16" }),
  },
  // huggingface/smolagents#1915: the thinking holds a blob that is not the reply
  {
    name: "<think> holding a draft blob, then prose",
    text: '<think>\nMaybe {"action": "web_search", "action_input": "hello"}? No, just greet.\n</think>\nHello! What can I do for you?',
    expect: final("Hello! What can I do for you?"),
  },
  // NVIDIA/NeMo-Agent-Toolkit#1675: the template opened <think>, so only its end is in the reply
  {
    name: "only </think> in the reply",
    text: "Okay, the user says hi. I should greet back.\n</think>\n\nHi there!",
    expect: final("Hi there!"),
  },
  // Hermes and Qwen models write their native tool-call format as text
  {
    name: "<tool_call> tags with name and arguments",
    text: '<tool_call>\n{"name": "calculator", "arguments": {"expression": "12*7"}}\n</tool_call>',
    expect: action("calculator", { expression: "12*7" }),
  },
  // ollama/ollama#12017: name and parameters, with a closing brace inside an argument string
  {
    name: "name and parameters with a brace inside a string",
    text: '{"name": "write_log", "parameters": {"message": "}A"}}',
    expect: action("write_log", { message: "}A" }),
  },
  // written for this corpus: the OpenAI tool-call object written out as text
  {
    name: "OpenAI-style function object",
    text: '{"type": "function", "function": {"name": "get_time", "arguments": {"timezone": "UTC"}}}',
    expect: action("get_time", { timezone: "UTC" }),
  },
  // written for this corpus: arguments as a JSON string, double-encoded as in the native API
  {
    name: "double-encoded arguments",
    text: '{"name": "calculator", "arguments": "{\\"expression\\": \\"1/3\\"}"}',
    expect: action("calculator", { expression: "1/3" }),
  },
  // written for this corpus: "tool" and "tool_input" keys
  {
    name: "tool and tool_input keys",
    text: `${F}json\n{"tool": "wikipedia", "tool_input": "Voyager 1"}\n${F}`,
    expect: action("wikipedia", "Voyager 1"),
  },
  // written for this corpus: capitalised keys with spaces, copied from the MRKL labels
  {
    name: "Action and Action Input as JSON keys",
    text: '{"Action": "calculator", "Action Input": "sqrt(81)"}',
    expect: action("calculator", "sqrt(81)"),
  },
  // written for this corpus: "Final_Answer" spelled with an underscore in a blob
  {
    name: "final_answer spelling",
    text: '{"action": "final_answer", "action_input": "Done: 3 files renamed."}',
    expect: final("Done: 3 files renamed."),
  },
  // ollama/ollama#5976: JSON-RPC shaped call wrapped in a fence (a method, not an action) stays prose
  {
    name: "JSON-RPC blob in prose",
    text: `The model said:\n${F}\n{"jsonrpc": "2.0", "method": "eval", "params": {"expression": "5234 / 6453"}}\n${F}`,
    expect: final(`The model said:\n${F}\n{"jsonrpc": "2.0", "method": "eval", "params": {"expression": "5234 / 6453"}}\n${F}`),
  },
  // written for this corpus: "action_name" for the tool's key, after prose
  {
    name: "action_name and action_input keys",
    text: `I'll compute it.\n${F}json\n{"action_name": "calculator", "action_input": {"expression": "2**8"}}\n${F}`,
    expect: action("calculator", { expression: "2**8" }),
  },
];
