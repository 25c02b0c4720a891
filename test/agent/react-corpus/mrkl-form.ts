import { action, F, final, type CorpusCase } from "./types.js";

/** Kind 3: the MRKL "Action: / Action Input:" form on one line or spread over lines, in its many spellings. */
export const mrklFormCases: CorpusCase[] = [
  // issue 14, kind 3: both on one line
  {
    name: "Action and Action Input on one line",
    text: "Action: calculator Action Input: 2+2",
    expect: action("calculator", "2+2"),
  },
  // issue 14, kind 3: thought, action and input all on one line
  {
    name: "Thought, Action and Action Input on one line",
    text: "Thought: I need to compute this. Action: calculator Action Input: 17 * 3",
    expect: action("calculator", "17 * 3"),
  },
  // issue 14, kind 3: prose, then the one-line form
  {
    name: "prose then the one-line form",
    text: "Sure, let me check. Action: wikipedia Action Input: Nikola Tesla",
    expect: action("wikipedia", "Nikola Tesla"),
  },
  // issue 14, kind 3 and langchain-ai/langchain#3365: the tool name on the line after "Action:"
  {
    name: "tool name on the next line",
    text: "Thought: look it up\nAction:\nwikipedia\nAction Input: Nikola Tesla",
    expect: action("wikipedia", "Nikola Tesla"),
  },
  // issue 14, kind 3: a description in parentheses after the name
  {
    name: "tool name with a description in parentheses",
    text: "Action: calculator (useful for arithmetic)\nAction Input: 365 * 24",
    expect: action("calculator", "365 * 24"),
  },
  // issue 14, kind 3: the name in backticks
  {
    name: "tool name in backticks",
    text: "Action: `wikipedia`\nAction Input: Ada Lovelace",
    expect: action("wikipedia", "Ada Lovelace"),
  },
  // issue 14, kind 3: the name in quotes
  {
    name: "tool name in quotes",
    text: 'Action: "web_search"\nAction Input: "weather in Oslo"',
    expect: action("web_search", "weather in Oslo"),
  },
  // written for this corpus: LangChain's prompt says "one of [tools]", and models copy the brackets
  {
    name: "tool name in square brackets",
    text: "Action: [wikipedia]\nAction Input: Alan Turing",
    expect: action("wikipedia", "Alan Turing"),
  },
  // issue 14, kind 3: the action written as a call with a JSON argument
  {
    name: "call form with a JSON object",
    text: 'Action: calculator({"expression": "2^10"})',
    expect: action("calculator", { expression: "2^10" }),
  },
  // issue 14, kind 3: the action written as a call with a string
  {
    name: "call form with a string",
    text: 'Thought: search it\nAction: wikipedia("Alan Turing")',
    expect: action("wikipedia", "Alan Turing"),
  },
  // written for this corpus: the old MRKL form tool[input]
  {
    name: "tool[input] form",
    text: "Action: calculator[3 + 4]",
    expect: action("calculator", "3 + 4"),
  },
  // issue 14, kind 3: markdown bold around the labels
  {
    name: "bold labels",
    text: "**Thought:** I should search.\n**Action:** web_search\n**Action Input:** best hiking trails",
    expect: action("web_search", "best hiking trails"),
  },
  // issue 14, kind 3: stray markdown around the input
  {
    name: "bold input",
    text: "Action: wikipedia\nAction Input: **Alan Turing**",
    expect: action("wikipedia", "Alan Turing"),
  },
  // issue 14, kind 3: a stray ** on one side of the input
  {
    name: "stray ** after the label",
    text: "**Action**: wikipedia\n**Action Input**: ** Grace Hopper",
    expect: action("wikipedia", "Grace Hopper"),
  },
  // issue 14, kind 3: a quote left unclosed at the end of the input
  {
    name: "quote left open",
    text: 'Action: wikipedia\nAction Input: "Alan Turing',
    expect: action("wikipedia", "Alan Turing"),
  },
  // issue 14, kind 3: a brace left unclosed at the end of the input
  {
    name: "brace left open",
    text: 'Action: calculator\nAction Input: {"expression": "2+2"',
    expect: action("calculator", { expression: "2+2" }),
  },
  // issue 14, kind 3: a brace left open after a number
  {
    name: "brace left open after a number",
    text: 'Action: hypotenuse\nAction Input: {"adjacent_side": 3, "angle": 60',
    expect: action("hypotenuse", { adjacent_side: 3, angle: 60 }),
  },
  // issue 14, kind 3: the quote and the brace both left open
  {
    name: "quote and brace left open",
    text: 'Action: web_search\nAction Input: {"query": "cheap flights to Rome',
    expect: action("web_search", { query: "cheap flights to Rome" }),
  },
  // written for this corpus: lower-case labels
  {
    name: "lower-case labels",
    text: "action: calculator\naction input: 100 / 8",
    expect: action("calculator", "100 / 8"),
  },
  // langchain-ai/langchain#2099: the input on the line after its label
  {
    name: "input on the next line",
    text: "Action: calculator\nAction Input:\n45 * 3",
    expect: action("calculator", "45 * 3"),
  },
  // dynamiq-ai/dynamiq#506: a blank line between the action and a JSON input spread over lines
  {
    name: "blank line and multi-line JSON input",
    text: 'Thought: I need to calculate the sum.\nAction: run_python\n\nAction Input: {\n    "code": "print(sum(range(1, 11)))"\n}',
    expect: action("run_python", { code: "print(sum(range(1, 11)))" }),
  },
  // written for this corpus: a dash and a description after the name
  {
    name: "tool name with a dash and a description",
    text: "Action: get_time - gives the current time\nAction Input: Asia/Tokyo",
    expect: action("get_time", "Asia/Tokyo"),
  },
  // written for this corpus: heading markup before the label
  {
    name: "heading before the label",
    text: "### Action: wikipedia\n### Action Input: Great Barrier Reef",
    expect: action("wikipedia", "Great Barrier Reef"),
  },
  // written for this corpus: the input in a code block
  {
    name: "input in a code block",
    text: `Action: run_python\nAction Input:\n${F}python\nprint(6 * 7)\n${F}`,
    expect: action("run_python", "print(6 * 7)"),
  },
  // written for this corpus: the input in inline code
  {
    name: "input in inline code",
    text: "Action: calculator\nAction Input: `sqrt(144)`",
    expect: action("calculator", "sqrt(144)"),
  },
  // langchain-ai/langchain#1345: the final answer given as an action's input
  {
    name: "Action: Final Answer with the answer as input",
    text: "Thought: I know this.\nAction: Final Answer\nAction Input: The Nile is about 6,650 km long.",
    expect: final("The Nile is about 6,650 km long."),
  },
  // written for this corpus: no space after the colons
  {
    name: "no space after the colons",
    text: "Action:calculator\nAction Input:5*5",
    expect: action("calculator", "5*5"),
  },
  // written for this corpus: a tool that takes no input
  {
    name: "input None",
    text: "Action: get_time\nAction Input: None",
    expect: action("get_time", {}),
  },
  // written for this corpus: numbered labels, as in LangChain's own regex
  {
    name: "numbered labels",
    text: "Action 1: calculator\nAction Input 1: 8 * 8",
    expect: action("calculator", "8 * 8"),
  },
  // written for this corpus: a comma between the name and the input label on one line
  {
    name: "comma before the input label",
    text: "Action: wikipedia, Action Input: Kilimanjaro",
    expect: action("wikipedia", "Kilimanjaro"),
  },
  // written for this corpus: underscores in the label
  {
    name: "Action_Input spelling",
    text: "Action: calculator\nAction_Input: 2**8",
    expect: action("calculator", "2**8"),
  },
  // written for this corpus: a line inside the JSON input's string looks like a label
  {
    name: "JSON input whose string holds a Thought: line",
    text: 'Action: save_note\nAction Input: {"text": "Plan for Monday\nThought: call the bank first"}',
    expect: action("save_note", { text: "Plan for Monday\nThought: call the bank first" }),
  },
];
