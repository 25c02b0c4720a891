import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../../fakes/fake-http-server.js";
import { callTool } from "../../support/call-tool.js";
import { knowledgeToolsFor } from "./knowledge-tools.js";

const TOOLS = [
  { tool: "wikipedia", service: "Wikipedia" },
  { tool: "arxiv", service: "arXiv" },
  { tool: "web_search", service: "DuckDuckGo" },
] as const;

describe.each(TOOLS)("when the service behind $tool misbehaves", ({ tool, service }) => {
  let server: FakeHttpServer;
  beforeEach(async () => {
    server = await FakeHttpServer.start();
  });
  afterEach(() => server.close());

  it("turns an HTTP 500 into a short error observation", async () => {
    server.route = () => answer.text(500, "Internal Server Error: stack trace at line 42");
    const result = await callTool(knowledgeToolsFor(server)[tool]!, { query: "Ada Lovelace" });

    expect(result.ok).toBe(false);
    expect(result.observation).toBe(`Error: ${tool} failed: ${service} answered with an error (HTTP 500).`);
    expect(result.step).toMatchObject({ type: "tool_failed", tool });
  });

  it("gives up after KNOWLEDGE_TIMEOUT_MS and says the service was too slow", async () => {
    server.route = () => answer.slow(5_000, answer.text(200, "too late"));
    const started = performance.now();
    const result = await callTool(knowledgeToolsFor(server, { KNOWLEDGE_TIMEOUT_MS: "300" })[tool]!, { query: "Ada Lovelace" });

    expect(result.observation).toBe(`Error: ${tool} failed: ${service} did not answer within 300 ms.`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("stops reading an endless body at the byte cap instead of filling the memory", async () => {
    server.route = () => answer.endless();
    const result = await callTool(knowledgeToolsFor(server)[tool]!, { query: "Ada Lovelace" });

    expect(result.observation).toBe(`Error: ${tool} failed: ${service}'s answer was larger than 1024 KB, so it was not read.`);
  });

  it("refuses a redirect to another host", async () => {
    const elsewhere = await FakeHttpServer.start();
    try {
      server.route = () => answer.text(302, "", "text/plain", { location: elsewhere.url("/steal") });
      const result = await callTool(knowledgeToolsFor(server)[tool]!, { query: "Ada Lovelace" });

      expect(result.observation).toBe(`Error: ${tool} failed: ${service} redirected the request elsewhere, so it was not followed.`);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it("says the service could not be reached when nothing listens", async () => {
    await server.close();
    const result = await callTool(knowledgeToolsFor(server)[tool]!, { query: "Ada Lovelace" });

    expect(result.observation).toBe(`Error: ${tool} failed: ${service} could not be reached.`);
  });
});
