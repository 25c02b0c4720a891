import { z } from "zod";
import { fetchText, KnowledgeError, parseJson, type HttpSettings } from "./http.js";
import { isWebLink, type SearchResult } from "./search-result.js";

const SERVICE = "SearxNG";

const searxAnswer = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().default(""),
      content: z.string().nullish(),
    }),
  ),
  // Plain strings in older instances, { answer } objects in newer ones.
  answers: z.array(z.union([z.string(), z.object({ answer: z.string() })])).default([]),
});

export interface SearxResults {
  results: SearchResult[];
  answers: string[];
}

/** Searches a SearxNG instance through its JSON API (GET /search?format=json). */
export async function searchSearxng(instanceUrl: string, query: string, limit: number, http: HttpSettings, signal: AbortSignal): Promise<SearxResults> {
  const url = new URL("search", instanceUrl.endsWith("/") ? instanceUrl : `${instanceUrl}/`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const text = await fetchText(
    {
      service: SERVICE,
      url,
      accept: "application/json",
      describeStatus: (status) =>
        status === 403 ? `${SERVICE} refused to answer in JSON (HTTP 403); its admin must enable the json format in settings.yml (search.formats).` : undefined,
    },
    http,
    signal,
  );
  const parsed = searxAnswer.safeParse(parseJson(text, SERVICE));
  if (!parsed.success) throw new KnowledgeError(`${SERVICE} answered in an unexpected format.`, { cause: parsed.error });
  return {
    results: parsed.data.results
      .filter((result) => isWebLink(result.url))
      .slice(0, limit)
      .map((result) => ({ title: result.title || result.url, url: result.url, snippet: result.content ?? "" })),
    answers: parsed.data.answers.map((answer) => (typeof answer === "string" ? answer : answer.answer)),
  };
}
