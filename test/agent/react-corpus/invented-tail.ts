import { action, F, type CorpusCase } from "./types.js";

/** Kind 2: text after the action that the model invented; the input ends where it begins. */
export const inventedTailCases: CorpusCase[] = [
  // issue 14, kind 2 and langchain-ai/langchain#5601: an invented observation after the input
  {
    name: "invented Observation line",
    text: "Thought: I need the time in Tokyo.\nAction: get_time\nAction Input: Asia/Tokyo\nObservation: It is 14:05 in Tokyo.",
    expect: action("get_time", "Asia/Tokyo"),
  },
  // issue 14, kind 2: the model goes on thinking instead of waiting for the observation
  {
    name: "invented Thought line",
    text: "Action: wikipedia\nAction Input: Marie Curie\nThought: Now I know about Marie Curie.",
    expect: action("wikipedia", "Marie Curie"),
  },
  // issue 14, kind 2: the model answers itself right after the input
  {
    name: "invented Final Answer line",
    text: "Action: calculator\nAction Input: 12 * 12\nFinal Answer: 144",
    expect: action("calculator", "12 * 12"),
  },
  // langchain-ai/langchain#21912: a whole invented cycle after the first action
  {
    name: "whole invented cycle",
    text: [
      "Question: Who founded the Red Cross?",
      "Thought: I should look it up.",
      "Action: wikipedia",
      "Action Input: Red Cross founder",
      "Observation: Henry Dunant founded it in 1863.",
      "Thought: I should check the year.",
      "Action: web_search",
      "Action Input: Red Cross 1863",
      "Observation: Founded 1863 in Geneva.",
      "Thought: I now know the final answer",
      "Final Answer: Henry Dunant, in 1863.",
    ].join("\n"),
    expect: action("wikipedia", "Red Cross founder"),
  },
  // issue 14, kind 2: a JSON input followed by an invented JSON observation
  {
    name: "JSON input, then an invented JSON observation",
    text: 'Action: convert_currency\nAction Input: {"amount": 20, "from": "GBP", "to": "EUR"}\nObservation: {"result": 23.4}',
    expect: action("convert_currency", { amount: 20, from: "GBP", to: "EUR" }),
  },
  // issue 14, kind 2: a partial "Obs" at the very end (cut by a length limit or a server's stop handling)
  {
    name: "partial Obs at the end",
    text: "Action: calculator\nAction Input: 7 / 2\nObs",
    expect: action("calculator", "7 / 2"),
  },
  // issue 14, kind 2: "Observation" without its colon at the very end
  {
    name: "Observation without colon at the end",
    text: "Action: wikipedia\nAction Input: Lake Baikal\nObservation",
    expect: action("wikipedia", "Lake Baikal"),
  },
  // written for this corpus: the one-line form with the observation on the same line
  {
    name: "observation on the input's line",
    text: "Action: calculator Action Input: 2+2 Observation: 4",
    expect: action("calculator", "2+2"),
  },
  // written for this corpus: a blank line, then an invented thought
  {
    name: "blank line then invented Thought",
    text: "Action: get_time\nAction Input: Europe/Paris\n\nThought: It is probably evening there.",
    expect: action("get_time", "Europe/Paris"),
  },
  // written for this corpus: a multi-line input ends at the invented observation, not at its first line
  {
    name: "multi-line input then invented Observation",
    text: "Action: run_python\nAction Input: x = 3\nprint(x * 2)\nObservation: 6",
    expect: action("run_python", "x = 3\nprint(x * 2)"),
  },
  // issue 14, kind 2: a JSON-blob action followed by an invented observation and answer
  {
    name: "JSON blob, then invented Observation and Final Answer",
    text: `${F}json\n{"action": "calculator", "action_input": {"expression": "15% of 80"}}\n${F}\nObservation: 12\nThought: I know it now.\nFinal Answer: 12`,
    expect: action("calculator", { expression: "15% of 80" }),
  },
  // written for this corpus: markdown-bold labels in the invented tail
  {
    name: "bold invented Observation",
    text: "**Action:** wikipedia\n**Action Input:** Kyoto\n**Observation:** Kyoto is a city in Japan.",
    expect: action("wikipedia", "Kyoto"),
  },
  // written for this corpus: a lower-case invented observation
  {
    name: "lower-case invented observation",
    text: "Action: web_search\nAction Input: rust borrow checker\nobservation: results about Rust",
    expect: action("web_search", "rust borrow checker"),
  },
  // crewAIInc/crewAI#2237: a single-quoted dict input followed by lines the model made up
  {
    name: "dict input followed by invented tool lines",
    text: "Action: web_search\nAction Input: {'query': 'AI trends 2024'}\nTool Name: Research\nTool Arguments: {'query': 'AI trends 2024'}\nObservation: The tool has been activated.",
    expect: action("web_search", { query: "AI trends 2024" }),
  },
  // issue 14, kind 2: a partial "Observ" after a JSON input
  {
    name: "partial Observ after a JSON input",
    text: 'Action: hypotenuse\nAction Input: {"adjacent_side": 4, "angle": 45}\nObserv',
    expect: action("hypotenuse", { adjacent_side: 4, angle: 45 }),
  },
  // written for this corpus: invented Final Answer on the input's line
  {
    name: "Final Answer on the input's line",
    text: "Thought: math.\nAction: calculator\nAction Input: 9*9 Final Answer: 81",
    expect: action("calculator", "9*9"),
  },
  // written for this corpus: prose after a JSON input, with no label at all
  {
    name: "prose after a JSON input",
    text: 'Action: web_search\nAction Input: {"query": "tide times Brest"}\n\nI will wait for the results before answering.',
    expect: action("web_search", { query: "tide times Brest" }),
  },
];
