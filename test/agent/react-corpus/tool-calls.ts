import { action, F, invalid, numbersTool, textTool, type CorpusCase } from "./types.js";

const search = textTool("search");
const weather = textTool("get_weather", "location");
const wikipedia = textTool("wikipedia_search");
const add = numbersTool("add", "a", "b");

/**
 * Issue 22: tool names outside ASCII, an input that is text in JSON's brackets for a tool that
 * takes one string, and calls written as `Tool({...})` or with the tool's class name.
 */
export const toolCallCases: CorpusCase[] = [
  // run-llama/llama_index tests/agent/react/test_react_output_parser.py, test_extract_tool_use_with_Chinese_characters
  {
    name: "Chinese tool name",
    text: 'Thought: I need to use a tool to help me answer the question.\n\nAction: 加法\n\nAction Input: {"a": 1, "b": 1}',
    expect: action("加法", { a: 1, b: 1 }),
  },
  // written for this corpus: Qwen-style output with full-width colons after the labels
  {
    name: "Chinese labels with full-width colons",
    text: 'Thought：我需要查询北京的天气\nAction：天气查询\nAction Input：{"city": "北京"}',
    expect: action("天气查询", { city: "北京" }),
  },
  // written for this corpus: accented and Cyrillic names are read whole, not cut at the first letter outside ASCII
  {
    name: "accented tool name",
    text: "Action: búsqueda_web\nAction Input: clima en Madrid",
    expect: action("búsqueda_web", "clima en Madrid"),
  },
  { name: "Cyrillic tool name", text: "Action: поиск\nAction Input: Москва", expect: action("поиск", "Москва") },
  // langchain-ai/langchain test_react_json_single_input.py's question, in the braces of a prompt's {input} placeholder
  {
    name: "text in braces for a one-string tool",
    text: "Thought: I should check the weather.\nAction: get_weather\nAction Input: {temperature in SF}",
    tools: [weather],
    expect: action("get_weather", "temperature in SF"),
  },
  // public ReAct prompts write "Action Input: [query]", and models copy the brackets
  {
    name: "text in square brackets for a one-string tool",
    text: "Thought: I should search for relevant context\nAction: search\nAction Input: [latest AI agent frameworks]",
    tools: [search],
    expect: action("search", "latest AI agent frameworks"),
  },
  // crewAIInc/crewAI#540: "the Action Input is not a valid key, value dictionary"; a one-string tool takes the text as written
  {
    name: "broken JSON for a one-string tool is passed as text",
    text: 'Action: search\nAction Input: {"query: best pizza in Naples}',
    tools: [search],
    expect: action("search", '{"query: best pizza in Naples}'),
  },
  // written for this corpus: for a tool of several parameters, braces around text remain an error for the model
  {
    name: "text in braces for a tool of two numbers",
    text: "Action: add\nAction Input: {one and two}",
    tools: [add],
    expect: invalid,
  },
  // run-llama/llama_index test_react_output_parser.py, test_extract_tool_use_: the input wrapped in the tool class's call
  {
    name: "input written as QueryEngineTool({...})",
    text: 'Thought: I need to use a tool to help me answer the question.\nAction: add\nAction Input: QueryEngineTool({"a": 1, "b": 1})',
    tools: [add],
    expect: action("add", { a: 1, b: 1 }),
  },
  // written for this corpus: the tool's own name repeated as a call around its input
  {
    name: "input written as a call of the tool",
    text: 'Action: wikipedia_search\nAction Input: wikipedia_search({"query": "Ada Lovelace"})',
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  // written for this corpus: a call of something else is the input as written
  {
    name: "a call of a function in the input stays text",
    text: "Action: search\nAction Input: len(results)",
    tools: [search],
    expect: action("search", "len(results)"),
  },
  // written for this corpus: models trained on Python write keyword arguments
  {
    name: "call with keyword arguments on the Action line",
    text: 'Action: wikipedia_search(query="Ada Lovelace")',
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  // written for this corpus: LangChain tools are classes (WikipediaQueryRun...); models name a tool by its class
  {
    name: "tool's class name on the Action line",
    text: 'Action: WikipediaSearch\nAction Input: {"query": "Ada Lovelace"}',
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  {
    name: "tool's class name with a Tool suffix, as a call",
    text: 'Action: WikipediaSearchTool({"query": "Ada Lovelace"})',
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  {
    name: "tool's class name in a JSON blob",
    text: `${F}json\n{"action": "WikipediaSearch", "action_input": {"query": "Ada Lovelace"}}\n${F}`,
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  // written for this corpus: a name that matches no tool stays as written, and the invoker lists the tools
  {
    name: "a name no tool has stays as written",
    text: "Action: WebBrowser\nAction Input: open example.com",
    tools: [wikipedia],
    expect: action("WebBrowser", "open example.com"),
  },
  // written for this corpus: a spelling two offered tools share means neither
  {
    name: "a spelling two tools share stays as written",
    text: "Action: Web-Search\nAction Input: weather in Oslo",
    tools: [textTool("web_search"), textTool("WebSearch")],
    expect: action("Web-Search", "weather in Oslo"),
  },
  // huggingface/smolagents (code agents): the whole reply is a call of a tool, in a code block
  {
    name: "the reply is only a call of an offered tool",
    text: `Thought: I will search Wikipedia.\n${F}py\nwikipedia_search({"query": "Ada Lovelace"})\n${F}`,
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  // crewAIInc/crewAI#2237: crewAI tools are named in words ("Action: Name of my tool"); here an offered tool's name so written
  {
    name: "tool name written in words",
    text: 'Thought: I should look it up.\nAction: Wikipedia Search\nAction Input: {"query": "Ada Lovelace"}',
    tools: [wikipedia],
    expect: action("wikipedia_search", { query: "Ada Lovelace" }),
  },
  // written for this corpus: the query as a one-element JSON list, as "[query]" prompts teach
  {
    name: "a one-element list for a one-string tool",
    text: 'Action: search\nAction Input: ["latest AI agent frameworks"]',
    tools: [search],
    expect: action("search", "latest AI agent frameworks"),
  },
  // written for this corpus: a Python set literal around the text
  {
    name: "a quoted string in braces for a one-string tool",
    text: 'Action: get_weather\nAction Input: {"Paris, France"}',
    tools: [weather],
    expect: action("get_weather", "Paris, France"),
  },
];
