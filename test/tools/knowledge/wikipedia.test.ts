import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../../fakes/fake-http-server.js";
import { callTool } from "../../support/call-tool.js";
import { knowledgeToolsFor } from "./knowledge-tools.js";

const JSON_TYPE = "application/json; charset=utf-8";

describe("the wikipedia tool", () => {
  let wiki: FakeHttpServer;
  beforeEach(async () => {
    wiki = await FakeHttpServer.start();
  });
  afterEach(() => wiki.close());

  const serveAda = () => {
    wiki.route = (req) =>
      req.url.searchParams.get("list") === "search"
        ? answer.fixture("wikipedia-search-ada.json", JSON_TYPE)
        : answer.fixture("wikipedia-extracts-ada.json", JSON_TYPE);
  };

  it("answers with the introductions of the best articles, in search order, each with its page URL", async () => {
    serveAda();
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "Ada Lovelace" });

    expect(result.ok).toBe(true);
    expect(result.observation).toMatch(/^Wikipedia \(en\) articles for "Ada Lovelace":/);
    expect(result.observation).toContain(
      "## Ada Lovelace\nhttps://en.wikipedia.org/wiki/Ada_Lovelace\nAugusta Ada King, Countess of Lovelace (née Byron; 10 December 1815 – 27 November 1852)",
    );
    expect(result.observation).toContain("## Analytical Engine\nhttps://en.wikipedia.org/wiki/Analytical_Engine\n");
    expect(result.observation.indexOf("## Ada Lovelace")).toBeLessThan(result.observation.indexOf("## Analytical Engine"));
    // long introductions are shortened, not passed whole
    expect(result.observation).not.toContain("SENTINEL-END-OF-ADA-EXTRACT");
    expect(result.observation).toContain("…");
  });

  it("searches first, then asks for plain-text intro extracts of the hits, with its own User-Agent", async () => {
    serveAda();
    const { wikipedia } = knowledgeToolsFor(wiki);
    await callTool(wikipedia!, { query: "Ada Lovelace", max_results: 2 });

    expect(wiki.requests).toHaveLength(2);
    const [search, extracts] = wiki.requests.map((req) => req.url.searchParams);
    expect(search!.get("list")).toBe("search");
    expect(search!.get("srsearch")).toBe("Ada Lovelace");
    expect(search!.get("srlimit")).toBe("2");
    expect(extracts!.get("prop")).toBe("extracts|info");
    expect(extracts!.get("pageids")).toBe("974|1271");
    expect(extracts!.get("exintro")).toBe("1");
    expect(extracts!.get("explaintext")).toBe("1");
    for (const req of wiki.requests) {
      expect(req.headers["user-agent"]).toBe("agent-bot-tests/1.0 (ops@example.org)");
      expect(req.url.searchParams.get("format")).toBe("json");
    }
  });

  it("uses the language from WIKIPEDIA_LANG in the API URL and says which Wikipedia it read", async () => {
    serveAda();
    const { wikipedia } = knowledgeToolsFor(wiki, { WIKIPEDIA_API_URL: wiki.url("/{lang}/w/api.php"), WIKIPEDIA_LANG: "de" });
    const result = await callTool(wikipedia!, { query: "Ada Lovelace" });

    expect(wiki.requests.map((req) => req.url.pathname)).toEqual(["/de/w/api.php", "/de/w/api.php"]);
    expect(result.observation).toMatch(/^Wikipedia \(de\) articles/);
  });

  it("says no article matches, with Wikipedia's suggestion, when the search is empty", async () => {
    wiki.route = () => answer.fixture("wikipedia-search-empty.json", JSON_TYPE);
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "Ada Lovlace" });

    expect(result.ok).toBe(true);
    expect(result.observation).toBe('No Wikipedia (en) article matches "Ada Lovlace". Did you mean "ada lovelace"?');
    expect(wiki.requests).toHaveLength(1);
  });

  it("passes on the reason when the API refuses the request", async () => {
    wiki.route = () => answer.fixture("wikipedia-error.json", JSON_TYPE);
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "Ada Lovelace" });

    expect(result.ok).toBe(false);
    expect(result.observation).toBe("Error: wikipedia failed: Wikipedia refused the request: Waiting for 10.64.48.35: 6 seconds lagged.");
  });

  it("explains an answer that is not JSON instead of crashing", async () => {
    wiki.route = () => answer.text(200, "<html><body>Wikimedia Error</body></html>", "text/html");
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "Ada Lovelace" });

    expect(result.observation).toBe("Error: wikipedia failed: Wikipedia answered in an unexpected format (not JSON).");
  });

  it("explains JSON of the wrong shape instead of crashing", async () => {
    wiki.route = () => answer.text(200, '{"query":{"search":"not a list"}}', JSON_TYPE);
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "Ada Lovelace" });

    expect(result.observation).toBe("Error: wikipedia failed: Wikipedia answered in an unexpected format.");
  });

  it("refuses a query that is empty before any request is made", async () => {
    const { wikipedia } = knowledgeToolsFor(wiki);
    const result = await callTool(wikipedia!, { query: "   " });

    expect(result.ok).toBe(false);
    expect(result.observation).toContain("invalid arguments for wikipedia");
    expect(wiki.requests).toHaveLength(0);
  });
});
