/** Text of an answer longer than Discord's and Slack's limits: paragraphs and a code block that must be split. */
export function longAnswer(): string {
  const paragraph = (n: number) => `Paragraph ${n}: ${"lorem ipsum dolor sit amet ".repeat(24).trim()} end of paragraph ${n}.`;
  const code = ["```ts", ...Array.from({ length: 70 }, (_, i) => `const value${i} = computeSomething(${i}); // line ${i}`), "```"].join("\n");
  return [paragraph(1), paragraph(2), code, paragraph(3), paragraph(4)].join("\n\n");
}

/** The words of a text, fences left out: split messages close and reopen code blocks. */
export const words = (text: string) => text.split(/\s+/).filter((word) => word !== "" && !word.startsWith("```"));
