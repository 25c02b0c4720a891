import { createServer, type Server } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answer, FakeHttpServer } from "../fakes/fake-http-server.js";
import { callTool } from "../support/call-tool.js";
import { knowledgeToolsFor } from "../tools/knowledge/knowledge-tools.js";

describe("a knowledge service that redirects to another port of its own host", () => {
  let service: FakeHttpServer;
  let otherPort: Server;
  let connections = 0;
  beforeEach(async () => {
    service = await FakeHttpServer.start();
    connections = 0;
    // Whatever listens there (an admin panel, a metadata endpoint) must not even be connected to.
    otherPort = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => otherPort.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => otherPort.close(resolve));
    await service.close();
  });

  const port = () => (otherPort.address() as { port: number }).port;

  it.each(["https", "http"])("is not followed over %s", async (scheme) => {
    service.route = () => answer.text(302, "", "text/plain", { location: `${scheme}://127.0.0.1:${port()}/admin` });
    const result = await callTool(knowledgeToolsFor(service).wikipedia!, { query: "Ada Lovelace" });

    expect(result.observation).toBe("Error: wikipedia failed: Wikipedia redirected the request elsewhere, so it was not followed.");
    expect(connections).toBe(0);
  });

  it("is followed on the same scheme, host and port", async () => {
    service.route = (request) =>
      request.url.pathname === "/moved/w/api.php"
        ? answer.fixture("wikipedia-search-empty.json", "application/json")
        : answer.text(302, "", "text/plain", { location: service.url(`/moved/w/api.php${request.url.search}`) });
    const result = await callTool(knowledgeToolsFor(service).wikipedia!, { query: "zzzqqq" });

    expect(result.ok).toBe(true);
    expect(service.requests.map((request) => request.url.pathname)).toEqual(["/w/api.php", "/moved/w/api.php"]);
  });
});
