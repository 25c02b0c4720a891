import { defineTool } from "../define-tool.js";
import { searchDuckDuckGo } from "./duckduckgo.js";
import type { HttpSettings } from "./http.js";
import { formatSearchResults } from "./search-result.js";
import { searchSearxng } from "./searxng.js";
import { searchParameters } from "./search-parameters.js";

export interface WebSearchOptions {
  duckDuckGoUrl: string;
  /** When set, searches go to this SearxNG instance instead of DuckDuckGo. */
  searxngUrl?: string;
  http: HttpSettings;
}

export function createWebSearchTool(options: WebSearchOptions) {
  return defineTool({
    name: "web_search",
    example: "Search the web for this week's news about Node.js.",
    description:
      "Searches the web and returns titles, short snippets and links of the top results. " +
      "Use it for current events and anything recent or not covered by an encyclopedia. Input: a search query.",
    parameters: searchParameters({ query: "What to search for", noun: "results", max: 8, fallback: 5 }),
    async run({ query, max_results }, ctx) {
      const limit = max_results ?? 5;
      if (options.searxngUrl) {
        const { results, answers } = await searchSearxng(options.searxngUrl, query, limit, options.http, ctx.signal);
        if (results.length === 0 && answers.length === 0) return `The web search found nothing for "${query}".`;
        return formatSearchResults("SearxNG", query, results, answers);
      }
      const results = await searchDuckDuckGo(options.duckDuckGoUrl, query, limit, options.http, ctx.signal);
      if (results.length === 0) return `The web search found nothing for "${query}".`;
      return formatSearchResults("DuckDuckGo", query, results);
    },
  });
}
