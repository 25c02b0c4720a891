import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchema, Tool, ToolContext } from "../define-tool.js";
import type { McpConnection, McpToolInfo } from "./mcp-connection.js";

/** Between server and tool name: OpenAI tool names allow no dots, so "files.read" is written "files__read". */
const MCP_NAME_SEPARATOR = "__";
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1_000;

/** The registry name of a server's tool: `server__tool`, made to fit ^[a-zA-Z0-9_-]{1,64}$. */
export function mcpToolName(server: string, tool: string): string {
  const name = `${server}${MCP_NAME_SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash("sha256").update(tool).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * A tool of an MCP server, as the registry sees it. Its schema is the server's JSON schema (not
 * zod), so it implements Tool directly; the server checks the arguments. While the server is
 * down the tool stays listed, says so in its description, and a call gets a clear error.
 */
export class McpTool implements Tool {
  readonly origin = "mcp" as const;
  readonly returnDirect = false;
  readonly timeoutMs = undefined;
  private info: McpToolInfo;
  private withdrawn = false;

  constructor(
    readonly name: string,
    info: McpToolInfo,
    private readonly connection: McpConnection,
  ) {
    this.info = info;
  }

  get description(): string {
    const own = (this.info.description ?? "").trim() || `Tool "${this.info.name}" of the MCP server "${this.connection.name}".`;
    const text = own.length > MAX_DESCRIPTION ? `${own.slice(0, MAX_DESCRIPTION)}…` : own;
    if (this.withdrawn) return `(no longer offered by MCP server "${this.connection.name}") ${text}`;
    return this.connection.state === "ready" ? text : `(unavailable: MCP server "${this.connection.name}" is not running) ${text}`;
  }

  /**
   * The server marks the tool destructive (`destructiveHint`) and not read-only: each call waits
   * for approval by default. An unmarked tool does not, although MCP's own default would call it
   * destructive: most servers leave the hints out, and asking for every call would bury the real ones.
   */
  get approvalByDefault(): boolean {
    const hints = this.info.annotations;
    return hints?.destructiveHint === true && hints.readOnlyHint !== true;
  }

  get jsonSchema(): JsonSchema {
    const { $schema: _ignored, ...schema } = this.info.inputSchema as JsonSchema;
    return { ...schema, type: "object", properties: schema.properties ?? {} };
  }

  /** Called when the server (re)lists its tools. */
  update(info: McpToolInfo | undefined): void {
    this.withdrawn = info === undefined;
    if (info) this.info = info;
  }

  parseArgs(raw: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
    const properties = Object.keys((this.jsonSchema.properties ?? {}) as object);
    let args: unknown = raw ?? {};
    // Text-protocol models may send a bare value; with a single parameter it can only mean that one.
    if (typeof args !== "object" && properties.length === 1) args = { [properties[0]!]: args };
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return { ok: false, error: `the arguments must be a JSON object with ${properties.join(", ") || "no"} fields` };
    }
    const required = Array.isArray(this.jsonSchema.required) ? (this.jsonSchema.required as string[]) : [];
    const missing = required.filter((key) => !(key in args));
    if (missing.length > 0) return { ok: false, error: `missing required argument(s): ${missing.join(", ")}` };
    return { ok: true, value: args };
  }

  async run(args: unknown, ctx: ToolContext): Promise<string> {
    if (this.withdrawn) throw new Error(`MCP server "${this.connection.name}" no longer offers this tool.`);
    const result = await this.connection.callTool(this.info.name, args as Record<string, unknown>, ctx.signal);
    const text = resultText(result);
    if (result.isError) throw new Error(text || "the MCP tool reported an error without details");
    return text || "(no output)";
  }
}

/** The result's content as text the model can read; binary parts are named, not inlined. */
function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case "text":
        return part.text;
      case "image":
      case "audio":
        return `[${part.type} (${part.mimeType}) not shown]`;
      case "resource":
        return "text" in part.resource ? part.resource.text : `[binary resource ${part.resource.uri} not shown]`;
      case "resource_link":
        return `[resource ${part.name}: ${part.uri}]`;
      default:
        return "";
    }
  });
  if (parts.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent);
  return parts.filter(Boolean).join("\n");
}
