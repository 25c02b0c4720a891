import { F, invalid, type CorpusCase } from "./types.js";

/** Kind 4: outputs that are not answers: they go back to the model, never to the user. */
export const notAnAnswerCases: CorpusCase[] = [
  // issue 14, kind 4: a bare "Action Input:" line reached the user as the answer
  { name: "bare Action Input", text: "Action Input: 2+2", expect: invalid },
  // issue 14, kind 4: a thought and an input, no action
  {
    name: "Thought and Action Input without Action",
    text: 'Thought: I should search for the weather.\nAction Input: "weather in Paris"',
    expect: invalid,
  },
  // issue 14, kind 4: "Final Answer:" inside an "Action:" line
  { name: "Final Answer inside an Action line", text: "Action: Final Answer: The capital is Paris.", expect: invalid },
  // issue 14, kind 4: the same after a thought on its own line
  {
    name: "Final Answer inside an Action line after a thought",
    text: "Thought: I know it.\nAction: Final Answer: 42",
    expect: invalid,
  },
  // issue 14, kind 4: a Final Answer blob with no input reached the user as the literal ""
  { name: "Final Answer blob without input", text: '{"action": "Final Answer"}', expect: invalid },
  // issue 14, kind 4: the same in a fence
  { name: "fenced Final Answer blob without input", text: `${F}json\n{"action": "Final Answer"}\n${F}`, expect: invalid },
  // issue 14, kind 4: an empty input is no answer either
  { name: "Final Answer blob with empty input", text: '{"action": "Final Answer", "action_input": ""}', expect: invalid },
  // written for this corpus: null input
  { name: "Final Answer blob with null input", text: '{"action": "Final Answer", "action_input": null}', expect: invalid },
  // issue 14, kind 4: a lone thought that decides something but says nothing
  { name: "lone Thought deciding to use a tool", text: "Thought: I should use the calculator to compute this.", expect: invalid },
  // LangChain's conversational agent, stopped after its first line
  { name: "lone Thought: Do I need to use a tool? No", text: "Thought: Do I need to use a tool? No", expect: invalid },
  // LangChain's MRKL prompt, the model stopped before the answer
  { name: "lone Thought: I now know the final answer", text: "Thought: I now know the final answer", expect: invalid },
  // crewAIInc/crewAI#103: thoughts over several lines and no action
  {
    name: "several Thought lines and no action",
    text: "Thought: The user wants a summary.\nThought: I will write it next.",
    expect: invalid,
  },
  // written for this corpus: an empty Final Answer
  { name: "empty Final Answer", text: "Thought: done\nFinal Answer:", expect: invalid },
  // issue 14, kind 4: the literal "" as the answer
  { name: 'Final Answer ""', text: 'Final Answer: ""', expect: invalid },
  // NVIDIA/NeMo-Agent-Toolkit#1675 and huggingface/smolagents#1915: reasoning that never closed
  {
    name: "unclosed <think>",
    text: "<think>\nThe user asks about LangSmith. I should search for it with the web_search tool.\n",
    expect: invalid,
  },
  // langchain-ai/langchain#1345: "Action: None" with no input
  { name: "Action: None", text: "Thought: I can answer directly.\nAction: None", expect: invalid },
  // written for this corpus: "Action:" with nothing after it
  { name: "empty Action", text: "Thought: I need a tool.\nAction:", expect: invalid },
  // written for this corpus: a JSON blob with no action key at all
  { name: "blob without an action key", text: `${F}json\n{"thought": "I should greet the user"}\n${F}`, expect: invalid },
  // written for this corpus: only an invented observation
  { name: "only an Observation", text: "Observation: The result is 4.", expect: invalid },
  // written for this corpus: a blob cut off before its input's value
  { name: "blob cut before a value", text: '{"action": "calculator", "action_input": {"expression":', expect: invalid },
  // issue 14, kind 4: an input and an invented observation, but no action
  {
    name: "JSON Action Input and Observation without Action",
    text: 'Action Input: {"query": "weather Lyon"}\nObservation: sunny',
    expect: invalid,
  },
];
