import { readFileSync } from "node:fs";
import { z } from "zod";
import { processEnvironment } from "../../config/environment.js";
import { BotError } from "../../errors.js";

/** Server names become the first half of tool names, so they keep to the characters tool names allow. */
const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

const stringMap = z.record(z.string(), z.string());

const stdioServer = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().optional(),
  disabled: z.boolean().optional(),
});

const httpServer = z.object({
  type: z
    .enum(["http", "streamable-http", "streamableHttp"], {
      message: 'must be "http" (Streamable HTTP); the older SSE transport is not supported',
    })
    .optional(),
  url: z.string().min(1),
  headers: stringMap.default({}),
  disabled: z.boolean().optional(),
});

const serverEntry = z.unknown().transform((value, ctx) => {
  const entry = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const schema = "url" in entry ? httpServer : "command" in entry ? stdioServer : undefined;
  if (!schema) {
    ctx.addIssue({ code: "custom", message: 'needs either "command" (a stdio server) or "url" (a Streamable HTTP server)' });
    return z.NEVER;
  }
  const parsed = schema.safeParse(entry);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: "custom", path: issue.path });
    return z.NEVER;
  }
  return parsed.data;
});

const mcpFile = z.object({ mcpServers: z.record(z.string(), serverEntry) });

export type McpServerConfig =
  | { name: string; kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { name: string; kind: "http"; url: string; headers: Record<string, string> };

export class McpConfigError extends BotError<"mcp_config_invalid"> {
  override readonly name = "McpConfigError";
  constructor(message: string, options?: ErrorOptions) {
    super("mcp_config_invalid", message, options);
  }
}

/**
 * Reads an MCP_CONFIG file in the common `{ "mcpServers": { name: {...} } }` format.
 * `${VAR}` in values is replaced from the environment, so secrets can stay out of the file.
 * Throws McpConfigError naming the file, the server and the field for anything wrong.
 */
export function readMcpConfig(path: string, env: NodeJS.ProcessEnv = processEnvironment()): McpServerConfig[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new McpConfigError(`MCP_CONFIG: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`MCP_CONFIG: ${path} is not valid JSON (${(error as Error).message})`);
  }
  return parseMcpConfig(json, env, path);
}

export function parseMcpConfig(json: unknown, env: NodeJS.ProcessEnv, source = "the MCP configuration"): McpServerConfig[] {
  const parsed = mcpFile.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`);
    throw new McpConfigError(`MCP_CONFIG: ${source} has problems:\n  ${lines.join("\n  ")}`);
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    if (!SERVER_NAME.test(name)) {
      throw new McpConfigError(`MCP_CONFIG: server name "${name}" must be 1-32 letters, digits, "_" or "-" (it prefixes tool names)`);
    }
    if (entry.disabled) continue;
    const expand = (value: string) => expandVariables(value, env, `mcpServers.${name}`);
    const expandAll = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, expand(value)]));
    if ("url" in entry && !isHttpUrl(expand(entry.url))) {
      throw new McpConfigError(`MCP_CONFIG: mcpServers.${name}.url must be an http(s) URL`);
    }
    servers.push(
      "url" in entry
        ? { name, kind: "http", url: expand(entry.url), headers: expandAll(entry.headers) }
        : { name, kind: "stdio", command: expand(entry.command), args: entry.args.map(expand), env: expandAll(entry.env), cwd: entry.cwd },
    );
  }
  return servers;
}

function expandVariables(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
    const found = env[variable];
    if (found === undefined) throw new McpConfigError(`MCP_CONFIG: ${where} uses \${${variable}}, which is not set`);
    return found;
  });
}

function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
