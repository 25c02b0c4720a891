import { fetchText, KnowledgeError, type HttpSettings } from "./http.js";
import { isWebLink, type SearchResult } from "./search-result.js";

const SERVICE = "DuckDuckGo";

/** Searches DuckDuckGo's no-JavaScript results page (the form at html.duckduckgo.com). */
export async function searchDuckDuckGo(baseUrl: string, query: string, limit: number, http: HttpSettings, signal: AbortSignal): Promise<SearchResult[]> {
  const html = await fetchText(
    {
      service: SERVICE,
      url: new URL(baseUrl),
      method: "POST",
      form: new URLSearchParams({ q: query }),
      accept: "text/html",
    },
    http,
    signal,
  );
  return (await parseDuckDuckGoHtml(html)).slice(0, limit);
}

/**
 * Reads the results of a DuckDuckGo HTML page: `.result` blocks with a `.result__a` title link
 * and a `.result__snippet`; ads are skipped. An empty list means the page said "no results";
 * any other page (a CAPTCHA, an error page, a broken document) is a KnowledgeError.
 */
async function parseDuckDuckGoHtml(html: string): Promise<SearchResult[]> {
  // Loaded on the first search that falls back to DuckDuckGo, not with the bot.
  const { parse } = await import("node-html-parser");
  const root = parse(html);
  const results: SearchResult[] = [];
  for (const block of root.querySelectorAll(".result")) {
    if (block.classList.contains("result--ad") || block.classList.contains("result--no-result")) continue;
    const anchor = block.querySelector(".result__a");
    const url = anchor ? resultTarget(anchor.getAttribute("href") ?? "") : undefined;
    if (!anchor || !url) continue;
    results.push({
      title: anchor.text.trim(),
      url,
      snippet: block.querySelector(".result__snippet")?.text.trim() ?? "",
    });
  }
  if (results.length > 0) return results;
  if (root.querySelector(".no-results, .result--no-result")) return [];
  if (root.querySelector(".anomaly-modal, #challenge-form")) {
    throw new KnowledgeError(`${SERVICE} asked for a CAPTCHA instead of answering (too many automated searches); try again later.`);
  }
  throw new KnowledgeError(`${SERVICE} answered with a page that is not a results page.`);
}

/** Result links go through DuckDuckGo's redirector (//duckduckgo.com/l/?uddg=TARGET); this returns TARGET. */
function resultTarget(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, "https://duckduckgo.com/");
  } catch {
    return undefined;
  }
  const target = url.pathname === "/l/" ? (url.searchParams.get("uddg") ?? "") : url.toString();
  return isWebLink(target) ? target : undefined;
}
