import type { Logger } from "../../log.js";
import type { ToolRegistry } from "../registry.js";
import type { McpServerConfig } from "./mcp-config.js";
import { DEFAULT_TIMING, McpConnection, type ConnectionState, type ConnectionTiming, type McpToolInfo } from "./mcp-connection.js";
import { mcpToolName, McpTool } from "./mcp-tool.js";

export interface McpServerStatus {
  server: string;
  state: ConnectionState;
  tools: string[];
}

/**
 * Every configured MCP server and its tools. Tools join the registry (origin "mcp") when their
 * server first lists them, whether at start-up or after a later restart, and stay registered
 * while it is down (their calls then fail with a clear message).
 */
export class McpHub {
  private readonly connections: McpConnection[] = [];
  private readonly tools = new Map<McpConnection, Map<string, McpTool>>();

  private constructor(
    private readonly registry: ToolRegistry,
    private readonly logger: Logger,
  ) {}

  /** Starts all servers at once; resolves when each is ready or has failed its first attempt. */
  static async start(servers: McpServerConfig[], registry: ToolRegistry, logger: Logger, timing: ConnectionTiming = DEFAULT_TIMING): Promise<McpHub> {
    const hub = new McpHub(registry, logger);
    for (const server of servers) {
      const connection: McpConnection = new McpConnection(server, logger, (tools) => hub.register(connection, tools), timing);
      hub.connections.push(connection);
      hub.tools.set(connection, new Map());
    }
    await Promise.all(hub.connections.map((connection) => connection.start()));
    return hub;
  }

  status(): McpServerStatus[] {
    return this.connections.map((connection) => ({
      server: connection.name,
      state: connection.state,
      tools: [...this.tools.get(connection)!.keys()],
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }

  private register(connection: McpConnection, listed: McpToolInfo[]): void {
    const known = this.tools.get(connection)!;
    const current = new Map(listed.map((info) => [mcpToolName(connection.name, info.name), info]));
    for (const [name, tool] of known) tool.update(current.get(name));
    for (const [name, info] of current) {
      if (known.has(name)) continue;
      if (this.registry.has(name)) {
        this.logger.error({ mcpServer: connection.name, tool: name }, `MCP tool ${name} skipped: a tool with that name already exists`);
        continue;
      }
      const tool = new McpTool(name, info, connection);
      this.registry.add(tool);
      known.set(name, tool);
    }
  }
}
