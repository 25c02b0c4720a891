import { F, final, type CorpusCase } from "./types.js";

/** Kind 5: a final answer that comes first, followed by an action: the answer wins, the rest is dropped. */
export const finalFirstCases: CorpusCase[] = [
  // issue 14, kind 5
  {
    name: "Final Answer then an MRKL action",
    text: "Final Answer: 4\nAction: calculator\nAction Input: 2+2",
    expect: final("4"),
  },
  // langchain-ai/langchain#21912 (the exception "both a final answer and a parse-able action"), answer first
  {
    name: "thought, answer, then another thought and action",
    text: "Thought: I know it.\nFinal Answer: Paris.\nThought: Let me double-check.\nAction: wikipedia\nAction Input: Paris",
    expect: final("Paris."),
  },
  // issue 14, kind 5: two blobs, the answer first
  {
    name: "Final Answer blob then an action blob",
    text: `${F}json\n{"action": "Final Answer", "action_input": "It is 21°C."}\n${F}\n${F}json\n{"action": "get_time", "action_input": {}}\n${F}`,
    expect: final("It is 21°C."),
  },
  // issue 14, kind 5: the answer, then an action blob
  {
    name: "Final Answer line then an action blob",
    text: `Final Answer: The capital of Australia is Canberra.\n${F}json\n{"action": "wikipedia", "action_input": "Canberra"}\n${F}`,
    expect: final("The capital of Australia is Canberra."),
  },
  // written for this corpus: the answer and an action on one line
  {
    name: "answer and action on one line",
    text: "Final Answer: 42 Action: calculator Action Input: 6*7",
    expect: final("42"),
  },
  // written for this corpus: a multi-line answer keeps all its lines
  {
    name: "multi-line answer then an action",
    text: "Final Answer: Two options:\n- take the train\n- take the bus\nAction: web_search\nAction Input: train times",
    expect: final("Two options:\n- take the train\n- take the bus"),
  },
  // LangChain's conversational agent: the AI line first
  {
    name: "AI line then an action",
    text: "Thought: Do I need to use a tool? No\nAI: Hello! How can I help?\nAction: get_time\nAction Input: UTC",
    expect: final("Hello! How can I help?"),
  },
  // written for this corpus: an answer followed by an invented observation
  {
    name: "answer then an invented Observation",
    text: "Final Answer: It is 12°C in Oslo.\n\nObservation: weather data",
    expect: final("It is 12°C in Oslo."),
  },
  // written for this corpus: bold labels, answer first
  {
    name: "bold Final Answer then a bold action",
    text: "**Final Answer:** Mount Everest\n**Action:** wikipedia\n**Action Input:** Everest",
    expect: final("Mount Everest"),
  },
  // written for this corpus: a Final Answer blob followed by an MRKL action
  {
    name: "Final Answer blob then an MRKL action",
    text: '{"action": "Final Answer", "action_input": "About 8 minutes."}\nAction: calculator\nAction Input: 150e6 / 3e5 / 60',
    expect: final("About 8 minutes."),
  },
  // written for this corpus: the answer, then a thought that wonders whether to check
  {
    name: "answer then a Thought",
    text: "Final Answer: Yes, 17 is prime.\nThought: maybe I should verify with the calculator",
    expect: final("Yes, 17 is prime."),
  },
];
