import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../../fakes/fake-http-server.js";
import { callTool } from "../../support/call-tool.js";
import { knowledgeToolsFor } from "./knowledge-tools.js";

const HTML = "text/html; charset=UTF-8";
const JSON_TYPE = "application/json";

describe("the web_search tool on DuckDuckGo", () => {
  let ddg: FakeHttpServer;
  beforeEach(async () => {
    ddg = await FakeHttpServer.start();
  });
  afterEach(() => ddg.close());

  it("posts the query to the HTML endpoint and lists titles, real links and snippets, without ads", async () => {
    ddg.route = () => answer.fixture("duckduckgo-results.html", HTML);
    const result = await callTool(knowledgeToolsFor(ddg).web_search!, { query: "rust 1.80 release" });

    expect(ddg.requests[0]).toMatchObject({ method: "POST", body: "q=rust+1.80+release" });
    expect(ddg.requests[0]!.url.pathname).toBe("/html/");
    expect(result.ok).toBe(true);
    expect(result.observation).toContain(
      '"rust 1.80 release" (DuckDuckGo):\n\n' +
        "1. Announcing Rust 1.80.0 | Rust Blog\n" +
        "   https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html\n" +
        "   The Rust team is happy to announce a new version of Rust, 1.80.0.",
    );
    expect(result.observation).toContain("LazyCell & LazyLock");
    expect(result.observation).toContain(
      "2. rust/RELEASES.md at master · rust-lang/rust · GitHub\n   https://github.com/rust-lang/rust/blob/master/RELEASES.md",
    );
    expect(result.observation).toContain("3. Rust 1.80 Brings LazyCell");
    expect(result.observation).not.toContain("Learn Rust Fast");
    expect(result.observation).not.toContain("javascript:");
    expect(result.observation).not.toContain("duckduckgo.com/l/");
  });

  it("shows only as many results as asked for", async () => {
    ddg.route = () => answer.fixture("duckduckgo-results.html", HTML);
    const result = await callTool(knowledgeToolsFor(ddg).web_search!, { query: "rust 1.80 release", max_results: 1 });

    expect(result.observation).toContain("1. Announcing Rust 1.80.0");
    expect(result.observation).not.toContain("2. ");
  });

  it("says the search found nothing on DuckDuckGo's no-results page", async () => {
    ddg.route = () => answer.fixture("duckduckgo-no-results.html", HTML);
    const result = await callTool(knowledgeToolsFor(ddg).web_search!, { query: "qwxzvbnmplk asdfghjkl" });

    expect(result).toMatchObject({ ok: true, observation: 'The web search found nothing for "qwxzvbnmplk asdfghjkl".' });
  });

  it("recognises DuckDuckGo's bot challenge instead of reporting no results", async () => {
    ddg.route = () => answer.fixture("duckduckgo-captcha.html", HTML);
    const result = await callTool(knowledgeToolsFor(ddg).web_search!, { query: "rust" });

    expect(result.ok).toBe(false);
    expect(result.observation).toContain("DuckDuckGo asked for a CAPTCHA");
  });

  it("explains a broken page that is not a results page", async () => {
    ddg.route = () => answer.fixture("duckduckgo-malformed.html", HTML);
    const result = await callTool(knowledgeToolsFor(ddg).web_search!, { query: "rust" });

    expect(result.observation).toBe("Error: web_search failed: DuckDuckGo answered with a page that is not a results page.");
  });
});

describe("the web_search tool on SearxNG", () => {
  let searx: FakeHttpServer;
  let ddg: FakeHttpServer;
  beforeEach(async () => {
    [searx, ddg] = await Promise.all([FakeHttpServer.start(), FakeHttpServer.start()]);
  });
  afterEach(() => Promise.all([searx.close(), ddg.close()]));

  const tools = () => knowledgeToolsFor(ddg, { SEARXNG_URL: searx.url("/searx") });

  it("asks the instance's JSON API instead of DuckDuckGo when SEARXNG_URL is set", async () => {
    searx.route = () => answer.fixture("searxng-results.json", JSON_TYPE);
    const result = await callTool(tools().web_search!, { query: "rust 1.80 release" });

    expect(ddg.requests).toHaveLength(0);
    expect(searx.requests[0]!.method).toBe("GET");
    expect(searx.requests[0]!.url.pathname).toBe("/searx/search");
    expect(Object.fromEntries(searx.requests[0]!.url.searchParams)).toEqual({ q: "rust 1.80 release", format: "json" });
    expect(result.observation).toContain(
      '"rust 1.80 release" (SearxNG):\n\n1. Announcing Rust 1.80.0 | Rust Blog\n   https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html\n   The Rust team is happy',
    );
    expect(result.observation).toContain("2. 1.80.0 | Rust Changelogs\n   https://releases.rs/docs/1.80.0/");
    expect(result.observation).toContain(
      "3. Announcing Rust 1.80.0 : r/rust\n   https://www.reddit.com/r/rust/comments/1ebx8zq/announcing_rust_1800/\n   (no snippet)",
    );
  });

  it("says the search found nothing when the instance has no results", async () => {
    searx.route = () => answer.fixture("searxng-empty.json", JSON_TYPE);
    const result = await callTool(tools().web_search!, { query: "qwxzvbnmplk" });

    expect(result.observation).toBe('The web search found nothing for "qwxzvbnmplk".');
  });

  it("explains that the instance must allow the JSON format when it answers 403", async () => {
    searx.route = () => answer.text(403, "<html><body><h1>403 Forbidden</h1></body></html>", "text/html");
    const result = await callTool(tools().web_search!, { query: "rust" });

    expect(result.ok).toBe(false);
    expect(result.observation).toContain("SearxNG refused to answer in JSON (HTTP 403)");
    expect(result.observation).toContain("search.formats");
  });
});
