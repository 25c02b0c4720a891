import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { clip, fetchText, KnowledgeError, parseJson, withinBudget, type HttpSettings } from "./http.js";
import { searchParameters } from "./search-parameters.js";

export interface WikipediaOptions {
  /** The MediaWiki api.php endpoint, `{lang}` already filled in. */
  apiUrl: string;
  lang: string;
  http: HttpSettings;
}

const SERVICE = "Wikipedia";
const EXTRACT_CHARS = 900;
const OUTPUT_BUDGET = 3_000;

const apiError = z.object({ error: z.object({ code: z.string(), info: z.string().optional() }) });

const searchAnswer = z.object({
  query: z.object({
    searchinfo: z.object({ suggestion: z.string().optional() }).optional(),
    search: z.array(z.object({ pageid: z.number(), title: z.string() })),
  }),
});

const extractsAnswer = z.object({
  query: z.object({
    pages: z.array(
      z.object({
        pageid: z.number().optional(),
        title: z.string(),
        extract: z.string().optional(),
        fullurl: z.string().optional(),
        missing: z.boolean().optional(),
      }),
    ),
  }),
});

/** Fills the `{lang}` placeholder of WIKIPEDIA_API_URL. */
export function wikipediaApiUrl(template: string, lang: string): string {
  return template.replaceAll("{lang}", lang);
}

export function createWikipediaTool(options: WikipediaOptions) {
  const ask = async (params: Record<string, string>, signal: AbortSignal) => {
    const url = new URL(options.apiUrl);
    for (const [key, value] of Object.entries({ ...params, format: "json", formatversion: "2" })) {
      url.searchParams.set(key, value);
    }
    const body = parseJson(await fetchText({ service: SERVICE, url, accept: "application/json" }, options.http, signal), SERVICE);
    const refused = apiError.safeParse(body);
    if (refused.success) {
      const why = (refused.data.error.info ?? refused.data.error.code).replace(/\.$/, "");
      throw new KnowledgeError(`${SERVICE} refused the request: ${why}.`);
    }
    return body;
  };

  return defineTool({
    name: "wikipedia",
    example: "Summarise Wikipedia's article on the Rosetta Stone.",
    description:
      "Looks a topic up on Wikipedia and returns the introduction of the best-matching articles, with their links. " +
      "Use it for facts about people, places, organisations, historical events and concepts. " +
      "Input: a short search query such as an article title (e.g. 'Ada Lovelace').",
    parameters: searchParameters({ query: "What to look up, e.g. a name or a topic", noun: "articles to read", max: 5, fallback: 2 }),
    async run({ query, max_results }, ctx) {
      const limit = max_results ?? 2;
      const search = expect(
        searchAnswer,
        await ask({ action: "query", list: "search", srsearch: query, srlimit: String(limit), srinfo: "suggestion", srprop: "" }, ctx.signal),
      );
      const hits = search.query.search.slice(0, limit);
      if (hits.length === 0) {
        const suggestion = search.query.searchinfo?.suggestion;
        return `No ${SERVICE} (${options.lang}) article matches "${query}".${suggestion ? ` Did you mean "${suggestion}"?` : ""}`;
      }

      const extracts = expect(
        extractsAnswer,
        await ask(
          {
            action: "query",
            prop: "extracts|info",
            inprop: "url",
            exintro: "1",
            explaintext: "1",
            exlimit: "max",
            pageids: hits.map((hit) => hit.pageid).join("|"),
          },
          ctx.signal,
        ),
      );
      const byId = new Map(extracts.query.pages.map((page) => [page.pageid, page]));
      const blocks = hits.map((hit) => {
        const page = byId.get(hit.pageid);
        const url = page?.fullurl ?? articleUrl(options.apiUrl, hit.title);
        const intro = page?.extract?.trim() ? clip(page.extract, EXTRACT_CHARS) : "(this article has no introduction text)";
        return `## ${hit.title}\n${url}\n${intro}`;
      });
      return withinBudget(`${SERVICE} (${options.lang}) articles for "${query}":`, blocks, OUTPUT_BUDGET);
    },
  });
}

function expect<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new KnowledgeError(`${SERVICE} answered in an unexpected format.`, { cause: parsed.error });
  }
  return parsed.data;
}

/** The article's address when the API did not give one: /wiki/Title on the API's host. */
function articleUrl(apiUrl: string, title: string): string {
  return new URL(`/wiki/${encodeURIComponent(title.replaceAll(" ", "_"))}`, apiUrl).toString();
}
