import { action, F, final, type CorpusCase } from "./types.js";

/**
 * Issue 22: a fenced blob whose string a model wrote as plain text, with raw line breaks and
 * unescaped inner quotes, was refused or cut at an inner quote. It reads as written.
 */
export const plainStringCases: CorpusCase[] = [
  // langgenius/dify-official-plugins#2291 and langchain-ai/langchain#15069: code in the input, here with its own quotes unescaped
  {
    name: "Python with inner quotes and raw line breaks",
    text: `${F}json\n{"action": "run_python", "action_input": "print("hello")\nprint("bye")"}\n${F}`,
    expect: action("run_python", 'print("hello")\nprint("bye")'),
  },
  // written for this corpus: a quotation followed by a comma, which a repair takes for the end of the string
  {
    name: "quoted words followed by a comma, over two lines",
    text: `${F}json\n{\n  "action": "Final Answer",\n  "action_input": "He said "hi", then left.\nThe end."\n}\n${F}`,
    expect: final('He said "hi", then left.\nThe end.'),
  },
  // written for this corpus: the input before the action key, its string ending in a quotation
  {
    name: "input first, ending in a quotation",
    text: `${F}json\n{"action_input": "The sign said "closed"", "action": "Final Answer"}\n${F}`,
    expect: final('The sign said "closed"'),
  },
  // written for this corpus: HTML attributes in a tool's input, some escaped and some not
  {
    name: "HTML with quoted attributes and raw line breaks",
    text: `${F}json\n{"action": "render_html", "action_input": {"html": "<a href="https://example.com">\n  \\"link\\"\n</a>"}}\n${F}`,
    expect: action("render_html", { html: '<a href="https://example.com">\n  "link"\n</a>' }),
  },
  // written for this corpus: a JSON escape kept as JSON means it, a backslash before a letter that is no escape kept as written
  {
    name: "a regular expression with a backslash and raw line breaks",
    text: `${F}json\n{"action": "grep", "action_input": "\\d+ "items"\n\\t(total)"}\n${F}`,
    expect: action("grep", '\\d+ "items"\n\t(total)'),
  },
  // written for this corpus: the same without its closing brace, as when a stop sequence ends the reply
  {
    name: "quoted words followed by a comma, the closing brace missing",
    text: `${F}json\n{"action": "Final Answer", "action_input": "She answered "yes", and smiled."\n${F}`,
    expect: final('She answered "yes", and smiled.'),
  },
];
