import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { loadToolExtensions, type ToolExtensions } from "../../../src/tools/extensions.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import { startHttpNotesServer, type HttpNotesServer } from "../../fixtures/mcp/http-notes-server.js";
import { callTool } from "../../support/call-tool.js";

describe("tools of a Streamable HTTP MCP server from MCP_CONFIG", () => {
  let server: HttpNotesServer;
  let extensions: ToolExtensions;
  let dir: string;
  const registry = new ToolRegistry();

  beforeAll(async () => {
    server = await startHttpNotesServer();
    dir = mkdtempSync(join(tmpdir(), "agent-bot-mcp-http-"));
    const configPath = join(dir, "mcp.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          remote: { type: "http", url: server.url, headers: { Authorization: "Bearer ${TEST_MCP_TOKEN}" } },
          switched_off: { command: "does-not-exist", disabled: true },
        },
      }),
    );
    process.env.TEST_MCP_TOKEN = "t0ken-from-env";
    extensions = await loadToolExtensions({ TOOLS_DIR: "", MCP_CONFIG: configPath }, registry, silentLogger());
  });
  afterAll(async () => {
    delete process.env.TEST_MCP_TOKEN;
    await extensions.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("connects with the configured headers, ${VAR} filled in from the environment", () => {
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(new Set(server.authorizations)).toEqual(new Set(["Bearer t0ken-from-env"]));
    expect(extensions.mcp!.status().map((status) => [status.server, status.state])).toEqual([["remote", "ready"]]);
  });

  it("lists the server's tools and calls them over HTTP", async () => {
    expect(registry.names("mcp")).toEqual(expect.arrayContaining(["remote__add_note", "remote__add"]));
    const result = await callTool(registry.get("remote__add")!, { a: 19, b: 23 });
    expect(result).toMatchObject({ ok: true, observation: "42" });
  });

  it("marks the server down when it stops answering, and its tools give a clear error", async () => {
    await server.close();
    const lost = await callTool(registry.get("remote__add")!, { a: 1, b: 1 });
    expect(lost.ok).toBe(false);
    const next = await callTool(registry.get("remote__add")!, { a: 1, b: 1 });
    expect(next.observation).toBe(
      'Error: remote__add failed: MCP server "remote" is not running (it failed to start or stopped); the bot is restarting it, so try again in a while.',
    );
  });
});
