import { clip, withinBudget } from "./http.js";

/** One web search hit, whichever engine found it. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

const SNIPPET_CHARS = 300;
const OUTPUT_BUDGET = 3_000;

/** Only ordinary web links are shown; anything else (javascript:, data:, ...) is dropped. */
export function isWebLink(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

export function formatSearchResults(engine: string, query: string, results: SearchResult[], answers: string[] = []): string {
  const blocks = results.map(
    (result, i) => `${i + 1}. ${clip(result.title, 200)}\n   ${result.url}\n   ${clip(result.snippet, SNIPPET_CHARS) || "(no snippet)"}`,
  );
  const header = `Web results for "${query}" (${engine}):${answers.length > 0 ? `\nDirect answer: ${clip(answers.join(" "), 400)}` : ""}`;
  return withinBudget(header, blocks, OUTPUT_BUDGET);
}
