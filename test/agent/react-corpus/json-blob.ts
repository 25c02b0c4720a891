import { action, F, final, type CorpusCase } from "./types.js";

/** Kind 1: JSON blobs whose strings hold raw newlines, tabs or code blocks, and hand-written JSON. */
export const jsonBlobCases: CorpusCase[] = [
  // issue 14, kind 1: SQL in action_input with raw line breaks, which strict JSON.parse refuses
  {
    name: "SQL with raw line breaks",
    text: `${F}json\n{"action": "run_sql", "action_input": "SELECT name, total\nFROM orders\nWHERE total > 100"}\n${F}`,
    expect: action("run_sql", "SELECT name, total\nFROM orders\nWHERE total > 100"),
  },
  // issue 14, kind 1: Python with raw line breaks and a raw tab for the indent
  {
    name: "Python with raw line breaks and a tab",
    text: `${F}json\n{"action": "run_python", "action_input": "for i in range(3):\n\tprint(i)"}\n${F}`,
    expect: action("run_python", "for i in range(3):\n\tprint(i)"),
  },
  // langchain-ai/langchain#15069: a final answer holding a fenced code block; the fence regex stopped at the inner fence
  {
    name: "final answer holding an escaped code block, inside a json fence",
    text: `${F}json\n{\n  "action": "Final Answer",\n  "action_input": "Here is the loop:\\n\\n${F}python\\nfor i in range(3):\\n    print(i)\\n${F}\\n\\nIt prints 0, 1 and 2."\n}\n${F}`,
    expect: final(`Here is the loop:\n\n${F}python\nfor i in range(3):\n    print(i)\n${F}\n\nIt prints 0, 1 and 2.`),
  },
  // langchain-ai/langchain#9535: backticks of a code block inside action_input broke the structured-chat parser
  {
    name: "tool input holding a code block, escaped",
    text: `Thought: I will run it.\n${F}json\n{"action": "run_python", "action_input": "${F}python\\nprint(2 ** 10)\\n${F}"}\n${F}`,
    expect: action("run_python", `${F}python\nprint(2 ** 10)\n${F}`),
  },
  // langgenius/dify-official-plugins#2291: a code block inside the Final Answer JSON, with raw line breaks this time
  {
    name: "final answer holding a raw code block",
    text: `${F}json\n{"action": "Final Answer", "action_input": "Use this:\n${F}bash\nls -la\n${F}\nIt lists every file."}\n${F}`,
    expect: final(`Use this:\n${F}bash\nls -la\n${F}\nIt lists every file.`),
  },
  // issue 14, kind 1: a chart spec as an object whose string holds raw line breaks
  {
    name: "chart spec object with a multi-line title",
    text: `${F}json\n{"action": "make_chart", "action_input": {"mark": "bar", "title": "Sales\nby month", "encoding": {"x": {"field": "month"}}}}\n${F}`,
    expect: action("make_chart", { mark: "bar", title: "Sales\nby month", encoding: { x: { field: "month" } } }),
  },
  // issue 14, kind 1: unescaped inner quotes where unambiguous
  {
    name: "unescaped quotes inside a query",
    text: `{"action": "web_search", "action_input": {"query": "the "best" pizza in Naples"}}`,
    expect: action("web_search", { query: 'the "best" pizza in Naples' }),
  },
  // written for this corpus: a quotation in a final answer, quotes left unescaped
  {
    name: "unescaped quotes inside a final answer",
    text: `${F}json\n{"action": "Final Answer", "action_input": "Turing asked "Can machines think?" in 1950."}\n${F}`,
    expect: final('Turing asked "Can machines think?" in 1950.'),
  },
  // issue 14, kind 1: trailing commas
  {
    name: "trailing commas",
    text: `${F}json\n{"action": "calculator", "action_input": {"expression": "2*21",},}\n${F}`,
    expect: action("calculator", { expression: "2*21" }),
  },
  // issue 14, kind 1: single-quoted keys and values (Python dict style)
  {
    name: "single-quoted keys and values",
    text: `{'action': 'wikipedia', 'action_input': {'query': 'Ada Lovelace'}}`,
    expect: action("wikipedia", { query: "Ada Lovelace" }),
  },
  // issue 14, kind 1: comments in the blob
  {
    name: "line and block comments",
    text: `${F}json\n{\n  "action": "calculator", // the tool\n  "action_input": {"expression": "3^4"} /* power */\n}\n${F}`,
    expect: action("calculator", { expression: "3^4" }),
  },
  // written for this corpus: Python literals from a model that thinks in Python
  {
    name: "Python None and True",
    text: `{"action": "get_time", "action_input": {"timezone": None}}`,
    expect: action("get_time", { timezone: null }),
  },
  // issue 14, kind 1: a final answer with a Markdown list written with raw line breaks
  {
    name: "final answer list with raw line breaks",
    text: `${F}json\n{\n  "action": "Final Answer",\n  "action_input": "Three steps:\n1. Boil water\n2. Add pasta\n3. Drain"\n}\n${F}`,
    expect: final("Three steps:\n1. Boil water\n2. Add pasta\n3. Drain"),
  },
  // written for this corpus: braces inside a string must not end the blob
  {
    name: "braces inside code in a string",
    text: `{"action": "run_python", "action_input": "d = {'a': 1}\nprint(d['a'])"}`,
    expect: action("run_python", "d = {'a': 1}\nprint(d['a'])"),
  },
  // written for this corpus: a bare blob (no fence) whose string holds a code fence, with prose before it
  {
    name: "bare blob with a code fence in its string",
    text: `I'll answer now.\n{"action": "Final Answer", "action_input": "Run:\\n${F}\\nnpm test\\n${F}"}`,
    expect: final(`Run:\n${F}\nnpm test\n${F}`),
  },
  // written for this corpus: HTML with unescaped attribute quotes in the answer
  {
    name: "HTML with unescaped attribute quotes",
    text: `{"action": "Final Answer", "action_input": "Use <a href="https://example.org">a link</a> here."}`,
    expect: final('Use <a href="https://example.org">a link</a> here.'),
  },
  // issue 14, kind 1: single quotes and a trailing comma together
  {
    name: "single quotes and a trailing comma in a nested object",
    text: `${F}\n{'action': 'convert_currency', 'action_input': {'amount': 100, 'from': 'EUR', 'to': 'USD',}}\n${F}`,
    expect: action("convert_currency", { amount: 100, from: "EUR", to: "USD" }),
  },
  // written for this corpus: a JavaScript-style escaped apostrophe, not valid JSON
  {
    name: "escaped apostrophe",
    text: `{"action": "Final Answer", "action_input": "It\\'s 4 degrees."}`,
    expect: final("It's 4 degrees."),
  },
  // written for this corpus: an apostrophe inside a single-quoted string
  {
    name: "apostrophe inside a single-quoted string",
    text: `{'action': 'Final Answer', 'action_input': 'It's sunny in Paris.'}`,
    expect: final("It's sunny in Paris."),
  },
  // written for this corpus: a long script with raw line breaks, longer than a typical reply
  {
    name: "long script with raw line breaks",
    text: `${F}json\n{"action": "run_python", "action_input": "${Array.from({ length: 80 }, (_, i) => `x${i} = ${i} * 2`).join("\n")}"}\n${F}`,
    expect: action("run_python", Array.from({ length: 80 }, (_, i) => `x${i} = ${i} * 2`).join("\n")),
  },
  // issue 14, kind 1: unquoted keys, as in JavaScript
  {
    name: "unquoted keys",
    text: `{action: "calculator", action_input: {expression: "sqrt(2)"}}`,
    expect: action("calculator", { expression: "sqrt(2)" }),
  },
  // written for this corpus: a missing comma between two keys
  {
    name: "missing comma between keys",
    text: `{"action": "wikipedia" "action_input": "Grace Hopper"}`,
    expect: action("wikipedia", "Grace Hopper"),
  },
];
