import type { Config } from "../config/env.js";
import type { Logger } from "../log.js";
import { readMcpConfig } from "./mcp/mcp-config.js";
import type { McpHub } from "./mcp/mcp-hub.js";
import { loadPlugins } from "./plugins/plugin-loader.js";
import type { ToolRegistry } from "./registry.js";

export interface ToolExtensions {
  mcp?: McpHub;
  /** Stops the MCP servers; call at shutdown. */
  close(): Promise<void>;
}

/**
 * The tools that come from outside the code: plugins from TOOLS_DIR and MCP servers from
 * MCP_CONFIG, added to the app's registry after the built-ins, so a name clash is caught and
 * reported instead of replacing a built-in. A bad plugin or a server that fails to start is
 * logged and skipped; only an unreadable MCP_CONFIG file throws (McpConfigError).
 */
export async function loadToolExtensions(config: Pick<Config, "TOOLS_DIR" | "MCP_CONFIG">, registry: ToolRegistry, logger: Logger): Promise<ToolExtensions> {
  const servers = config.MCP_CONFIG ? readMcpConfig(config.MCP_CONFIG) : [];
  await loadPlugins(config.TOOLS_DIR, registry, logger);
  // The MCP SDK (about 10 MB with its dependencies) is loaded only when servers are configured.
  const mcp = servers.length > 0 ? await (await import("./mcp/mcp-hub.js")).McpHub.start(servers, registry, logger) : undefined;
  return { mcp, close: async () => mcp?.close() };
}
