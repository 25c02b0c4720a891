import { action, F, final, type CorpusCase } from "./types.js";

/** What the parser already read right must stay so; plain prose with no markers stays the answer. */
export const asTodayCases: CorpusCase[] = [
  // test/agent/react-parser.test.ts: the prompt's own format
  {
    name: "fenced json action after a thought",
    text: `Thought: I need the tool.\n${F}json\n{"action": "circumference", "action_input": {"radius": 7.81}}\n${F}`,
    expect: action("circumference", { radius: 7.81 }),
  },
  // test/agent/react-parser.test.ts: a fence with no language
  { name: "fence with no language", text: `${F}\n{"action": "get_time", "action_input": {}}\n${F}`, expect: action("get_time", {}) },
  // test/agent/react-parser.test.ts: an upper-case language tag
  {
    name: "upper-case JSON fence",
    text: `${F}JSON\n{"action": "calculator", "action_input": "2+2"}\n${F}`,
    expect: action("calculator", "2+2"),
  },
  // test/agent/react-parser.test.ts: a bare blob with prose around it
  {
    name: "bare blob with prose around it",
    text: 'Sure! {"action": "calculator", "action_input": {"expression": "{1+1}"}} Let me check.',
    expect: action("calculator", { expression: "{1+1}" }),
  },
  // test/agent/react-parser.test.ts: the Final Answer blob
  {
    name: "Final Answer blob",
    text: `${F}json\n{"action": "Final Answer", "action_input": "It is 49.07."}\n${F}`,
    expect: final("It is 49.07."),
  },
  // issue 14: a number as action_input stays a number
  { name: "number input", text: '{"action": "circumference", "action_input": 7.81}', expect: action("circumference", 7.81) },
  // issue 14: an object as action_input stays that object
  {
    name: "nested object input",
    text: `${F}json\n{"action": "convert_currency", "action_input": {"amount": 12.5, "from": "CHF", "to": "JPY"}}\n${F}`,
    expect: action("convert_currency", { amount: 12.5, from: "CHF", to: "JPY" }),
  },
  // test/agent/react-parser.test.ts: MRKL with JSON input
  {
    name: "MRKL with JSON input",
    text: 'Action: hypotenuse\nAction Input: {"adjacent_side": 3, "angle": 60}',
    expect: action("hypotenuse", { adjacent_side: 3, angle: 60 }),
  },
  // test/agent/react-parser.test.ts: MRKL with a single-quoted input
  { name: "MRKL with a quoted input", text: "Action: wikipedia\nAction Input: 'Alan Turing'", expect: action("wikipedia", "Alan Turing") },
  // test/agent/react-parser.test.ts: a MRKL final answer
  {
    name: "MRKL final answer",
    text: "Thought: I now know the final answer\nFinal Answer: 6 units",
    expect: final("6 units"),
  },
  // test/agent/react-parser.test.ts: a chat bot answers in prose
  { name: "plain prose", text: "Hello! How can I help you today?", expect: final("Hello! How can I help you today?") },
  // issue 14: prose with Markdown stays as written
  {
    name: "prose with Markdown",
    text: "**Paris** is the capital of France.\n\n- population: about 2.1 million\n- river: the Seine",
    expect: final("**Paris** is the capital of France.\n\n- population: about 2.1 million\n- river: the Seine"),
  },
  // issue 14: prose that shows a JSON example is an answer, not a broken action
  {
    name: "prose with a JSON example",
    text: `A user record looks like this:\n${F}json\n{"name": "Ada", "age": 36}\n${F}`,
    expect: final(`A user record looks like this:\n${F}json\n{"name": "Ada", "age": 36}\n${F}`),
  },
  // written for this corpus: prose with code that has braces
  {
    name: "prose with JavaScript code",
    text: `Try this:\n${F}js\nconst total = items.reduce((sum, item) => { return sum + item.price; }, 0);\n${F}`,
    expect: final(`Try this:\n${F}js\nconst total = items.reduce((sum, item) => { return sum + item.price; }, 0);\n${F}`),
  },
  // LangChain's conversational agent: the AI line
  { name: "AI line", text: "AI: Hello there!", expect: final("Hello there!") },
  // LangChain's conversational agent: thought, then the AI line
  {
    name: "thought then AI line",
    text: "Thought: Do I need to use a tool? No\nAI: Paris is the capital of France.",
    expect: final("Paris is the capital of France."),
  },
  // the parser has always dropped a leading thought before prose
  {
    name: "thought then prose",
    text: "Thought: The user greets me.\nHello! How can I help?",
    expect: final("Hello! How can I help?"),
  },
  // written for this corpus: the word "action" in prose is not a label
  {
    name: "the word action in prose",
    text: "The best course of action: rest, fluids, and see a doctor if the fever lasts.",
    expect: final("The best course of action: rest, fluids, and see a doctor if the fever lasts."),
  },
  // written for this corpus: an empty input object
  { name: "empty input object", text: '{"action": "get_time", "action_input": {}}', expect: action("get_time", {}) },
  // written for this corpus: a number as the final answer
  { name: "number as the final answer", text: '{"action": "Final Answer", "action_input": 42}', expect: final("42") },
  // written for this corpus: a multi-line MRKL final answer
  {
    name: "multi-line MRKL final answer",
    text: "Thought: done\nFinal Answer: First line.\nSecond line.",
    expect: final("First line.\nSecond line."),
  },
  // written for this corpus: answers in other scripts
  { name: "answer in Japanese", text: "東京の現在時刻は14時5分です。", expect: final("東京の現在時刻は14時5分です。") },
  // written for this corpus: a MRKL action with no input
  { name: "MRKL action without input", text: "Thought: time\nAction: get_time", expect: action("get_time", {}) },
  // written for this corpus: a final answer in quotes is shown without them
  { name: "quoted final answer", text: 'Final Answer: "Berlin"', expect: final("Berlin") },
  // written for this corpus: a long prose answer keeps every paragraph
  {
    name: "long prose answer",
    text: Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} explains one more detail.`).join("\n\n"),
    expect: final(Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} explains one more detail.`).join("\n\n")),
  },
  // written for this corpus: a time in prose has a colon but no label
  { name: "time with colons in prose", text: "The meeting is at 10:30, not 11:00.", expect: final("The meeting is at 10:30, not 11:00.") },
  // written for this corpus: a capitalised "Action:" inside an answer is part of the answer
  {
    name: "Action: inside a final answer",
    text: "Final Answer: If the card is stolen, take Action: call your bank and block it.",
    expect: final("If the card is stolen, take Action: call your bank and block it."),
  },
  // written for this corpus: prose lines that start with a word and a colon
  {
    name: "prose with Summary: and Note: lines",
    text: "Summary: the meeting moved to Friday.\nNote: bring the slides.",
    expect: final("Summary: the meeting moved to Friday.\nNote: bring the slides."),
  },
];
