import { MAX_REPAIR_CHARS } from "../../../src/agent/tolerant-json.js";

const RUN = 200_000;

/**
 * Replies a model stuck in a loop can send. The parser before this one took about a minute on
 * the first and the third (26.8 s in issue 16): a regular expression backtracking over the
 * blanks in quadratic time. Each must now take a few milliseconds.
 */
export const PATHOLOGICAL: Record<string, string> = {
  "200,000 blanks after Action": `Action${" ".repeat(RUN)}x`,
  "200,000 blanks after Action:": `Action:${" ".repeat(RUN)}x`,
  "200,000 blanks after Action Input": `Action: calculator\nAction Input${" ".repeat(RUN)}x`,
  "200,000 tabs after Final Answer": `Final Answer${"\t".repeat(RUN)}x`,
  "200,000 {": "{".repeat(RUN),
  "200,000 quotes": '"'.repeat(RUN),
  "200,000 quotes in a blob": `{"action": "calculator", "action_input": "${'"'.repeat(RUN)}`,
  "200,000 backticks": "`".repeat(RUN),
  "200,000 blanks in a code block": `\`\`\`json\n${" ".repeat(RUN)}x`,
  '"Action:" repeated 30,000 times': "Action:".repeat(30_000),
  '"Action:" on 25,000 lines': "Action:\n".repeat(25_000),
  "one-line actions repeated": "Action: a Action Input: b ".repeat(8_000),
  "200,000 stars after a label": `**Action**${"*".repeat(RUN)}`,
  '"{"action":" nested 20,000 deep': '{"action":'.repeat(20_000),
  "200,000 single quotes in a blob": `{'action': '${"'".repeat(RUN)}`,
  "a repairable blob of unescaped quotes at the repair limit": `{"action": "x", "action_input": "${'a"'.repeat(MAX_REPAIR_CHARS / 2 - 20)}"}`,
  "inner quotes each followed by a comma at the repair limit": `{"action": "x", "action_input": "${'a",'.repeat(MAX_REPAIR_CHARS / 3 - 20)}"}`,
  "raw line breaks and inner quotes at the repair limit": `{"action": "x", "action_input": "${'"a"\n'.repeat(MAX_REPAIR_CHARS / 4 - 20)}"}`,
  "keyword arguments repeated in a call": `Action: search(${"q=1, ".repeat(40_000)})`,
  "parentheses opened 100,000 times in an Action Input": `Action: search\nAction Input: QueryTool${"(".repeat(100_000)}`,
  '"Thought：" with full-width colons on 25,000 lines': "Thought：x\n".repeat(25_000),
  "code fences inside a blob at the repair limit": `{"action": "x", "action_input": "${"```".repeat(MAX_REPAIR_CHARS / 3 - 20)}"}`,
};
