import { defineTool } from "../define-tool.js";
import { clip, fetchText, KnowledgeError, withinBudget, type HttpSettings } from "./http.js";
import { searchParameters } from "./search-parameters.js";

export interface ArxivOptions {
  apiUrl: string;
  http: HttpSettings;
}

export interface ArxivPaper {
  title: string;
  authors: string[];
  published: string;
  summary: string;
  link: string;
}

const SERVICE = "arXiv";
const ABSTRACT_CHARS = 450;
const SHOWN_AUTHORS = 4;
const OUTPUT_BUDGET = 3_000;
/** arXiv's own query syntax (ti:, au:, abs:, cat:, ...): passed through as the model wrote it. */
const FIELD_PREFIX = /\b(ti|au|abs|co|jr|cat|rn|id|all):/;

/**
 * Reads an arXiv Atom feed. Throws KnowledgeError when the text is not well-formed XML or not
 * an Atom feed, and when arXiv answered with its error entry instead of results.
 */
async function parseArxivFeed(xml: string): Promise<ArxivPaper[]> {
  // Loaded on the tool's first run, not with the bot: most bots never search arXiv.
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new KnowledgeError(`${SERVICE} answered with malformed XML.`, { cause: new Error(valid.err.msg) });
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseTagValue: false,
    isArray: (tagName) => ["entry", "author", "link"].includes(tagName),
  });
  const feed = (parser.parse(xml) as { feed?: unknown }).feed;
  if (typeof feed !== "object" || feed === null) {
    throw new KnowledgeError(`${SERVICE} answered in an unexpected format (not an Atom feed).`);
  }
  const entries = ((feed as { entry?: unknown[] }).entry ?? []) as Record<string, unknown>[];
  const error = entries.find((entry) => text(entry.id).includes("/api/errors"));
  if (error) throw new KnowledgeError(`${SERVICE} rejected the query: ${clip(text(error.summary), 200)}`);

  return entries.map((entry) => {
    const links = (entry.link ?? []) as Record<string, string>[];
    const page = links.find((link) => link.rel === "alternate")?.href ?? text(entry.id);
    return {
      title: clip(text(entry.title), 300),
      authors: ((entry.author ?? []) as Record<string, unknown>[]).map((author) => text(author.name)).filter(Boolean),
      published: text(entry.published).slice(0, 10),
      summary: text(entry.summary),
      link: page,
    };
  });
}

/** arXiv's search_query: field-prefixed queries as written, anything else searched in all fields. */
function arxivSearchQuery(query: string): string {
  return FIELD_PREFIX.test(query) ? query : `all:${query}`;
}

export function createArxivTool(options: ArxivOptions) {
  return defineTool({
    name: "arxiv",
    example: "Find recent arXiv papers on retrieval-augmented generation.",
    description:
      "Searches arXiv for scientific papers (physics, mathematics, computer science, quantitative biology and finance, " +
      "statistics, electrical engineering, economics) and returns title, authors, date, an abstract excerpt and link. " +
      'Input: search words, a "quoted phrase", or arXiv syntax such as ti:transformer AND au:vaswani.',
    parameters: searchParameters({ query: "What to search for", noun: "papers", max: 5, fallback: 3 }),
    async run({ query, max_results }, ctx) {
      const url = new URL(options.apiUrl);
      url.searchParams.set("search_query", arxivSearchQuery(query));
      url.searchParams.set("start", "0");
      url.searchParams.set("max_results", String(max_results ?? 3));
      url.searchParams.set("sortBy", "relevance");
      const xml = await fetchText({ service: SERVICE, url, accept: "application/atom+xml" }, options.http, ctx.signal);
      const papers = await parseArxivFeed(xml);
      if (papers.length === 0) return `No ${SERVICE} paper matches "${query}".`;
      const blocks = papers.map((paper, i) => {
        const authors =
          paper.authors.length > SHOWN_AUTHORS
            ? `${paper.authors.slice(0, SHOWN_AUTHORS).join(", ")} et al. (${paper.authors.length} authors)`
            : paper.authors.join(", ") || "unknown authors";
        return `${i + 1}. ${paper.title}\n   ${authors}; ${paper.published || "undated"}\n   ${paper.link}\n   ${clip(paper.summary, ABSTRACT_CHARS)}`;
      });
      return withinBudget(`${SERVICE} papers for "${query}":`, blocks, OUTPUT_BUDGET);
    },
  });
}

/** The text of an element, whether the parser gave a string or an object with attributes. */
function text(node: unknown): string {
  if (typeof node === "string") return node.replace(/\s+/g, " ").trim();
  if (typeof node === "object" && node !== null && "#text" in node) return text((node as { "#text": unknown })["#text"]);
  return "";
}
