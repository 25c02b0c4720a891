import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "../../src/tools/mcp/mcp-config.js";
import type { ConnectionTiming } from "../../src/tools/mcp/mcp-connection.js";
import { TSX_LOADER } from "./child-bot.js";

const NOTES_SERVER = fileURLToPath(new URL("../fixtures/mcp/notes-server.ts", import.meta.url));

/** The test MCP server over stdio, run by this Node with tsx, as an MCP_CONFIG entry would start it. */
export function notesServer(name = "notes", env: Record<string, string> = {}): McpServerConfig {
  return { name, kind: "stdio", command: process.execPath, args: ["--import", TSX_LOADER, NOTES_SERVER], env };
}

/** Short waits so restart tests stay quick. */
export const FAST_RESTARTS: ConnectionTiming = {
  connectTimeoutMs: 15_000,
  initialBackoffMs: 300,
  maxBackoffMs: 2_000,
  stableAfterMs: 60_000,
};

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
