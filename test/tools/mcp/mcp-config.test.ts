import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpConfigError, parseMcpConfig, readMcpConfig } from "../../../src/tools/mcp/mcp-config.js";
import { mcpToolName } from "../../../src/tools/mcp/mcp-tool.js";
import { TOOL_NAME } from "../../../src/tools/define-tool.js";

describe("the MCP_CONFIG file", () => {
  it("reads stdio and Streamable HTTP servers in the common mcpServers format", () => {
    const servers = parseMcpConfig(
      {
        mcpServers: {
          files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/notes"], env: { DEBUG: "0" } },
          search: { type: "http", url: "https://mcp.example.org/mcp", headers: { Authorization: "Bearer ${SEARCH_TOKEN}" } },
          old: { command: "old-server", disabled: true },
        },
      },
      { HOME: "/home/bot", SEARCH_TOKEN: "abc" },
    );

    expect(servers).toEqual([
      {
        name: "files",
        kind: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/bot/notes"],
        env: { DEBUG: "0" },
        cwd: undefined,
      },
      { name: "search", kind: "http", url: "https://mcp.example.org/mcp", headers: { Authorization: "Bearer abc" } },
    ]);
  });

  it.each([
    [{ servers: {} }, /mcpServers/],
    [{ mcpServers: { nothing: { args: [] } } }, /mcpServers\.nothing: needs either "command" \(a stdio server\) or "url"/],
    [{ mcpServers: { legacy: { type: "sse", url: "http://127.0.0.1:1/sse" } } }, /the older SSE transport is not supported/],
    [{ mcpServers: { web: { url: "ftp://example.org" } } }, /mcpServers\.web\.url must be an http\(s\) URL/],
    [{ mcpServers: { "my.server": { command: "x" } } }, /server name "my\.server" must be 1-32 letters/],
    [{ mcpServers: { s: { command: "x", env: { TOKEN: "${MISSING_VAR}" } } } }, /mcpServers\.s uses \$\{MISSING_VAR\}, which is not set/],
  ])("rejects %j with a message naming the problem", (json, message) => {
    expect(() => parseMcpConfig(json, {})).toThrowError(McpConfigError);
    expect(() => parseMcpConfig(json, {})).toThrowError(message);
  });

  it("says which file is missing or not JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-mcp-config-"));
    try {
      const bad = join(dir, "mcp.json");
      writeFileSync(bad, "{ mcpServers: ");
      expect(() => readMcpConfig(bad)).toThrowError(/^MCP_CONFIG: .*mcp\.json is not valid JSON/);
      expect(() => readMcpConfig(join(dir, "missing.json"))).toThrowError(/^MCP_CONFIG: cannot read .*missing\.json \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("names of MCP tools", () => {
  it("join server and tool with a double underscore, as OpenAI function names allow no dots", () => {
    expect(mcpToolName("files", "read_file")).toBe("files__read_file");
    expect(mcpToolName("github", "repos.list/all")).toBe("github__repos_list_all");
  });

  it("stay within 64 characters and distinct when tool names are long", () => {
    const a = mcpToolName("server", `${"x".repeat(70)}_alpha`);
    const b = mcpToolName("server", `${"x".repeat(70)}_beta`);
    expect(a).toMatch(TOOL_NAME);
    expect(b).toMatch(TOOL_NAME);
    expect(a).not.toBe(b);
  });
});
