import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpError, type CallToolResult, type Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../log.js";
import type { McpServerConfig } from "./mcp-config.js";
import { BotError } from "../../errors.js";

export type { McpToolInfo };

export type ConnectionState = "starting" | "ready" | "down" | "closed";

export interface ConnectionTiming {
  /** Start-up (spawn or connect, initialize, list tools) must finish within this. */
  connectTimeoutMs: number;
  /** First wait before a restart; it doubles after each failure up to `maxBackoffMs`. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A connection that lasted this long counts as healthy: the next restart waits `initialBackoffMs` again. */
  stableAfterMs: number;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  connectTimeoutMs: 30_000,
  initialBackoffMs: 1_000,
  maxBackoffMs: 60_000,
  stableAfterMs: 30_000,
};

/** Time limit the SDK applies to one call; the tool's own time limit (ctx.signal) normally ends it sooner. */
const CALL_TIMEOUT_MS = 10 * 60_000;
const STDERR_LINE_CHARS = 500;

class McpUnavailableError extends BotError<"mcp_unavailable"> {
  override readonly name = "McpUnavailableError";
  constructor(message: string, options?: ErrorOptions) {
    super("mcp_unavailable", message, options);
  }
}

/**
 * One MCP server: starts it, lists its tools, calls them, and restarts it with backoff when it
 * fails to start or goes away. Never throws from start(); failures are logged and retried.
 */
export class McpConnection {
  state: ConnectionState = "starting";
  private client?: Client;
  private failures = 0;
  private readyAt = 0;
  private retryTimer?: NodeJS.Timeout;
  /** Set by close(): a connection being closed never restarts. */
  private stopped = false;

  constructor(
    readonly server: McpServerConfig,
    private readonly logger: Logger,
    private readonly onTools: (tools: McpToolInfo[]) => void,
    private readonly timing: ConnectionTiming = DEFAULT_TIMING,
  ) {}

  get name(): string {
    return this.server.name;
  }

  /** Resolves once the first attempt succeeded or failed (a failure schedules a retry). */
  async start(): Promise<void> {
    await this.connect();
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.client;
    if (this.state !== "ready" || !client) {
      throw new McpUnavailableError(
        `MCP server "${this.name}" is not running (it failed to start or stopped); the bot is restarting it, so try again in a while.`,
      );
    }
    try {
      return (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: CALL_TIMEOUT_MS })) as CallToolResult;
    } catch (error) {
      // A protocol error is the server answering; anything else (fetch failed, HTTP 5xx) means it is gone.
      if (!signal.aborted && !(error instanceof McpError) && client === this.client) this.lost(client, error);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.state = "closed";
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.state = "starting";
    const client = new Client(
      { name: "agent-bot", version: "0.1.0" },
      {
        capabilities: {},
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error) this.logger.warn({ err: error, mcpServer: this.name }, "could not refresh the MCP server's tools");
              else if (tools && client === this.client) this.onTools(tools);
            },
          },
        },
      },
    );
    try {
      const transport = this.transport();
      await client.connect(transport, { timeout: this.timing.connectTimeoutMs });
      const tools = await this.listAllTools(client);
      if (this.stopped) {
        await client.close();
        return;
      }
      client.onclose = () => this.lost(client, new Error("the connection closed"));
      this.client = client;
      this.state = "ready";
      this.readyAt = Date.now();
      this.onTools(tools);
      this.logger.info({ mcpServer: this.name, tools: tools.map((tool) => tool.name) }, `MCP server ${this.name} is ready`);
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.stopped) return;
      this.state = "down";
      // The first failure is an error; the retries that follow only repeat it.
      const level = this.failures === 0 ? "error" : "warn";
      this.logger[level]({ err: error, mcpServer: this.name }, `MCP server ${this.name} failed to start`);
      this.scheduleRestart();
    }
  }

  private lost(client: Client, error: unknown): void {
    if (client !== this.client || this.state !== "ready") return;
    this.client = undefined;
    this.state = "down";
    void client.close().catch(() => undefined);
    if (Date.now() - this.readyAt >= this.timing.stableAfterMs) this.failures = 0;
    this.logger.error({ err: error, mcpServer: this.name }, `MCP server ${this.name} stopped`);
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = Math.min(this.timing.maxBackoffMs, this.timing.initialBackoffMs * 2 ** this.failures);
    this.failures++;
    this.logger.info({ mcpServer: this.name, inMs: delay }, `restarting MCP server ${this.name} in ${Math.round(delay / 100) / 10} s`);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  private async listAllTools(client: Client): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.timing.connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  private transport(): Transport {
    const server = this.server;
    if (server.kind === "http") {
      return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
    }
    // Only the SDK's safe defaults (PATH, HOME, ...) plus the configured env reach the server: never the bot's tokens.
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: server.env,
      cwd: server.cwd,
      stderr: "pipe",
    });
    let pending = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim()) this.logger.info({ mcpServer: this.name }, `[${this.name} stderr] ${line.slice(0, STDERR_LINE_CHARS)}`);
      }
    });
    return transport;
  }
}
