import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../../fakes/fake-http-server.js";
import { callTool } from "../../support/call-tool.js";
import { knowledgeToolsFor } from "./knowledge-tools.js";

const ATOM = "application/atom+xml; charset=utf-8";

describe("the arxiv tool", () => {
  let arxiv: FakeHttpServer;
  beforeEach(async () => {
    arxiv = await FakeHttpServer.start();
  });
  afterEach(() => arxiv.close());

  it("lists title, authors, date, link and an abstract excerpt of each paper", async () => {
    arxiv.route = () => answer.fixture("arxiv-transformers.xml", ATOM);
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "attention transformer" });

    expect(result.ok).toBe(true);
    expect(result.observation).toMatch(/^arXiv papers for "attention transformer":/);
    expect(result.observation).toContain(
      "1. Attention Is All You Need\n" +
        "   Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit et al. (8 authors); 2017-06-12\n" +
        "   http://arxiv.org/abs/1706.03762v7\n" +
        "   The dominant sequence transduction models are based on complex recurrent or convolutional neural networks",
    );
    // the abstract is an excerpt, with the line breaks of the feed flattened
    expect(result.observation).not.toContain("ABSTRACT-TAIL-SENTINEL");
    expect(result.observation).not.toContain("recurrent or\nconvolutional");
  });

  it("keeps non-ASCII text and XML entities intact, even when the body arrives in small chunks", async () => {
    arxiv.route = () => answer.fixture("arxiv-transformers.xml", ATOM, { chunkBytes: 5 });
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "Aufmerksamkeit" });

    expect(result.observation).toContain("2. Über Aufmerksamkeit & Faltung: Ein Vergleich für die Bilderkennung\n");
    expect(result.observation).toContain("   Zoë Müller-Łukasiewicz, 田中 太郎; 2021-05-04\n");
    expect(result.observation).toContain("beide Ansätze <i>ähnliche</i> Genauigkeit");
    expect(result.observation).not.toContain("\uFFFD");
  });

  it("encodes quotes, ampersands and non-ASCII text of the query correctly", async () => {
    arxiv.route = () => answer.fixture("arxiv-empty.xml", ATOM);
    await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: '"Schrödinger équation" & 量子', max_results: 2 });

    const [req] = arxiv.requests;
    expect(req!.url.pathname).toBe("/api/query");
    expect(req!.url.searchParams.get("search_query")).toBe('all:"Schrödinger équation" & 量子');
    expect(req!.url.searchParams.get("max_results")).toBe("2");
    expect(req!.rawQuery).toContain("search_query=all%3A%22Schr%C3%B6dinger+%C3%A9quation%22+%26+%E9%87%8F%E5%AD%90&");
  });

  it("passes arXiv's own field syntax through unchanged", async () => {
    arxiv.route = () => answer.fixture("arxiv-empty.xml", ATOM);
    await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "ti:transformer AND au:vaswani" });

    expect(arxiv.requests[0]!.url.searchParams.get("search_query")).toBe("ti:transformer AND au:vaswani");
  });

  it("says no paper matches when the feed has no entries", async () => {
    arxiv.route = () => answer.fixture("arxiv-empty.xml", ATOM);
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "qwxzvbnm" });

    expect(result).toMatchObject({ ok: true, observation: 'No arXiv paper matches "qwxzvbnm".' });
  });

  it("passes on arXiv's error entry instead of showing it as a paper", async () => {
    arxiv.route = () => answer.fixture("arxiv-error.xml", ATOM);
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "ti:" });

    expect(result.ok).toBe(false);
    expect(result.observation).toBe("Error: arxiv failed: arXiv rejected the query: incorrect search_query syntax");
  });

  it("explains a malformed XML answer instead of crashing", async () => {
    arxiv.route = () => answer.fixture("arxiv-malformed.xml", ATOM);
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "attention" });

    expect(result.observation).toBe("Error: arxiv failed: arXiv answered with malformed XML.");
  });

  it("explains well-formed XML that is not an Atom feed", async () => {
    arxiv.route = () => answer.text(200, "<error><message>Service temporarily unavailable</message></error>", "text/xml");
    const result = await callTool(knowledgeToolsFor(arxiv).arxiv!, { query: "attention" });

    expect(result.observation).toBe("Error: arxiv failed: arXiv answered in an unexpected format (not an Atom feed).");
  });
});
