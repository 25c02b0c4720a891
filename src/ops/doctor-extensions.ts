import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { pino } from "pino";
import type { Config } from "../config/env.js";
import { silentLogger } from "../log.js";
import { builtinTools } from "../tools/builtin/index.js";
import { readMcpConfig, type McpServerConfig } from "../tools/mcp/mcp-config.js";
import { loadPlugins } from "../tools/plugins/plugin-loader.js";
import { ToolRegistry } from "../tools/registry.js";
import { type Verdict, withTimeout } from "./verdict.js";
import { hasCode } from "../errors.js";

/** The doctor's checks of the tools from outside the code: the TOOLS_DIR folder, its plugins, the MCP servers. */

const TOOL_NAMES_SHOWN = 8;

/** TOOLS_DIR (exists, is a folder the bot can read) and each plugin in it (loads, adds tools). */
export async function checkPlugins(config: Config, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Verdict[]> {
  const dir = config.TOOLS_DIR;
  const item = "tools folder";
  if (dir === "") return [{ item, status: "pass", detail: "plugins are off (TOOLS_DIR=none)" }];
  try {
    if (!(await stat(dir)).isDirectory()) return [{ item, status: "warning", detail: `${dir} is not a folder: no plugins are loaded (TOOLS_DIR)` }];
    await access(dir, constants.R_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT")
      return [{ item, status: "fail", detail: `cannot read ${dir} (${code ?? (error as Error).message}): the bot would not start (TOOLS_DIR)` }];
    // The default folder is optional; a folder named on purpose that is not there is likely a mistake.
    const named = (env.TOOLS_DIR ?? "").trim() !== "";
    return [
      named
        ? { item, status: "warning", detail: `${dir} does not exist: no plugins are loaded (TOOLS_DIR)` }
        : { item, status: "pass", detail: `no ${dir} folder: no plugins` },
    ];
  }
  // The built-ins are there so that a plugin reusing one of their names is caught, as at start-up; no tool runs.
  const registry = new ToolRegistry(builtinTools({ currency: { store: NO_RATES, ratesUrl: config.CURRENCY_RATES_URL }, knowledge: config }));
  let result: Awaited<ReturnType<typeof loadPlugins>>;
  try {
    result = await withTimeout(loadPlugins(dir, registry, silentLogger()), timeoutMs);
  } catch (error) {
    return [{ item, status: "fail", detail: `cannot load the plugins in ${dir}: ${(error as Error).message}` }];
  }
  const files = result.loaded.size + result.problems.length;
  const plugins: Verdict[] = [
    ...[...result.loaded].map(([file, tools]): Verdict => ({ item: `plugin ${file}`, status: "pass", detail: `adds ${namesOf(tools)}` })),
    ...result.problems.map((problem): Verdict => ({ item: `plugin ${problem.file}`, status: "fail", detail: `skipped: ${problem.reason}` })),
  ];
  plugins.sort((a, b) => a.item.localeCompare(b.item));
  return [{ item, status: "pass", detail: `${dir}: ${files} plugin file(s)` }, ...plugins];
}

const NO_RATES = { get: async () => undefined, put: async () => undefined };

/** Each server of MCP_CONFIG: it starts (or is reached), answers and lists its tools, within `timeoutMs`. */
export async function checkMcpServers(config: Pick<Config, "MCP_CONFIG">, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Verdict[]> {
  if (!config.MCP_CONFIG) return [];
  let servers: McpServerConfig[];
  try {
    servers = readMcpConfig(config.MCP_CONFIG, env);
  } catch (error) {
    const detail = hasCode(error, "mcp_config_invalid") ? error.message.replace(/^MCP_CONFIG: /, "") : (error as Error).message;
    return [{ item: "MCP servers", status: "fail", detail: `${detail} (MCP_CONFIG)` }];
  }
  if (servers.length === 0) return [{ item: "MCP servers", status: "warning", detail: `${config.MCP_CONFIG} lists no server that is not disabled` }];
  // The MCP SDK is loaded only when servers are configured, as at start-up.
  const { DEFAULT_TIMING, McpConnection } = await import("../tools/mcp/mcp-connection.js");
  return Promise.all(
    servers.map(async (server): Promise<Verdict> => {
      const item = `MCP server ${server.name}`;
      const { logger, entries } = recordingLogger();
      let tools: string[] = [];
      const connection = new McpConnection(server, logger, (listed) => (tools = listed.map((tool) => tool.name)), {
        ...DEFAULT_TIMING,
        connectTimeoutMs: timeoutMs,
      });
      let state: typeof connection.state;
      try {
        // The connection bounds its own start-up; this bounds what it does not (a spawn that never returns, say).
        await withTimeout(connection.start(), 2 * timeoutMs);
        state = connection.state;
      } catch (error) {
        return { item, status: "fail", detail: `did not start: ${(error as Error).message}` };
      } finally {
        await connection.close();
      }
      if (state === "ready") return { item, status: "pass", detail: `answers with ${tools.length} tool(s)${tools.length ? `: ${namesOf(tools)}` : ""}` };
      const failure = entries.find((entry) => entry.level >= 50 && entry.mcpServer === server.name)?.err?.message ?? "it failed to start";
      const said = entries
        .filter((entry) => / stderr\] /.test(entry.msg ?? ""))
        .at(-1)
        ?.msg?.replace(/^\[[^\]]+ stderr\] /, "");
      return { item, status: "fail", detail: `did not start: ${failure}${said ? ` (it said: ${said})` : ""}` };
    }),
  );
}

interface LogEntry {
  level: number;
  msg?: string;
  mcpServer?: string;
  err?: { message?: string };
}

/** A logger whose entries are kept, to tell why a server failed (the connection logs rather than throws). */
function recordingLogger() {
  const entries: LogEntry[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void entries.push(JSON.parse(line) as LogEntry) });
  return { logger, entries };
}

function namesOf(names: string[]): string {
  const shown = names.slice(0, TOOL_NAMES_SHOWN).join(", ");
  return names.length > TOOL_NAMES_SHOWN ? `${shown} and ${names.length - TOOL_NAMES_SHOWN} more` : shown;
}
