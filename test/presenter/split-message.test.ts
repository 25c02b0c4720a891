import { describe, expect, it } from "vitest";
import { splitMessage } from "../../src/presenter/split-message.js";

const words = (text: string) =>
  text
    .replace(/```[\w+#.-]*/g, " ")
    .split(/\s+/)
    .filter(Boolean);
const fencesBalanced = (chunk: string) => (chunk.match(/^\s*```/gm) ?? []).length % 2 === 0;

describe("splitting a long message", () => {
  it("keeps a short message whole", () => {
    expect(splitMessage("hello", 2000)).toEqual(["hello"]);
  });

  it("splits prose under the limit without cutting a word or losing one", () => {
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const chunks = splitMessage(text, 200);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(200);
    expect(words(chunks.join(" "))).toEqual(words(text));
  });

  it("prefers paragraph breaks to line breaks", () => {
    const paragraph = (n: number) => Array.from({ length: 6 }, (_, i) => `Paragraph ${n} line ${i} has some text.`).join("\n");
    const text = [paragraph(1), paragraph(2), paragraph(3)].join("\n\n");
    const chunks = splitMessage(text, 400);
    expect(chunks[0]!.endsWith("Paragraph 1 line 5 has some text.")).toBe(true);
    expect(chunks[1]!.startsWith("Paragraph 2 line 0")).toBe(true);
  });

  it("closes a split code block and reopens it with its language", () => {
    const code = Array.from({ length: 120 }, (_, i) => `const value${i} = ${i};`).join("\n");
    const text = `Here is the code:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat's all.`;
    const chunks = splitMessage(text, 500);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(500);
      expect(fencesBalanced(chunk)).toBe(true);
    }
    expect(chunks[1]!.startsWith("```ts\n")).toBe(true);
    expect(words(chunks.join("\n"))).toEqual(words(text));
  });

  it("cuts a single word longer than the limit rather than dropping it", () => {
    const url = `https://example.com/${"a".repeat(450)}`;
    const chunks = splitMessage(`see ${url} now`, 200);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(200);
    expect(chunks.join("").replace(/\s/g, "")).toBe(`see${url}now`);
  });
});
