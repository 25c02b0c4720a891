import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../../fakes/fake-http-server.js";
import { reply } from "../../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../../support/test-app.js";

describe("a turn that looks something up on Wikipedia", () => {
  let wiki: FakeHttpServer;
  let t: TestApp;
  beforeEach(async () => {
    wiki = await FakeHttpServer.start();
    wiki.route = (req) =>
      req.url.searchParams.get("list") === "search"
        ? answer.fixture("wikipedia-search-ada.json", "application/json")
        : answer.fixture("wikipedia-extracts-ada.json", "application/json");
    t = await startTestApp({ WIKIPEDIA_API_URL: wiki.url("/w/api.php") });
  });
  afterEach(async () => {
    await t.close();
    await wiki.close();
  });

  it("offers the knowledge tools by default, calls wikipedia, and answers with the article's link", async () => {
    t.model.script(reply.toolCalls({ name: "wikipedia", args: { query: "Ada Lovelace" } }), (req) => {
      const observation: string = req.body.messages.at(-1).content;
      const url = observation.match(/https:\/\/en\.wikipedia\.org\/wiki\/\S+/)![0];
      const born = observation.match(/10 December 1815/)![0];
      return { kind: "message", content: `Ada Lovelace was born on ${born} (source: ${url}).` };
    });
    const sink = new RecordingSink();
    const result = await t.app.runner.submit(request("Who was Ada Lovelace?"), sink);

    expect(t.model.toolsOffered(0)).toEqual(expect.arrayContaining(["wikipedia", "arxiv", "web_search"]));
    expect(sink.events.map((e) => e.type)).toEqual(["tool_started", "tool_finished", "reply"]);
    expect(sink.steps[1]).toMatchObject({ tool: "wikipedia" });
    expect(result).toMatchObject({
      status: "answered",
      text: "Ada Lovelace was born on 10 December 1815 (source: https://en.wikipedia.org/wiki/Ada_Lovelace).",
    });
    expect(wiki.requests).toHaveLength(2);
  });
});
