import type { Config } from "../../config/env.js";
import type { Tool } from "../define-tool.js";
import { createArxivTool } from "./arxiv.js";
import { DEFAULT_MAX_BYTES, type HttpSettings } from "./http.js";
import { createWebSearchTool } from "./web-search.js";
import { createWikipediaTool, wikipediaApiUrl } from "./wikipedia.js";

export type KnowledgeConfig = Pick<
  Config,
  "WIKIPEDIA_API_URL" | "WIKIPEDIA_LANG" | "ARXIV_API_URL" | "DUCKDUCKGO_URL" | "SEARXNG_URL" | "KNOWLEDGE_TIMEOUT_MS" | "KNOWLEDGE_USER_AGENT"
>;

/** wikipedia, arxiv and web_search, each talking only to the host configuration names. */
export function knowledgeTools(config: KnowledgeConfig, maxBytes = DEFAULT_MAX_BYTES): Tool[] {
  const http: HttpSettings = { userAgent: config.KNOWLEDGE_USER_AGENT, timeoutMs: config.KNOWLEDGE_TIMEOUT_MS, maxBytes };
  return [
    createWikipediaTool({
      apiUrl: wikipediaApiUrl(config.WIKIPEDIA_API_URL, config.WIKIPEDIA_LANG),
      lang: config.WIKIPEDIA_LANG,
      http,
    }),
    createArxivTool({ apiUrl: config.ARXIV_API_URL, http }),
    createWebSearchTool({ duckDuckGoUrl: config.DUCKDUCKGO_URL, searxngUrl: config.SEARXNG_URL, http }),
  ];
}
