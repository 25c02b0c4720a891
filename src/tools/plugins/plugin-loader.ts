import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "../../log.js";
import { isTool, type Tool } from "../define-tool.js";
import type { ToolRegistry } from "../registry.js";

/** Modules tsx can run: plain JavaScript and TypeScript. */
const PLUGIN_FILE = /^[^._].*\.(js|mjs|ts|mts)$/;

/**
 * Plugins may be TypeScript, and they import `agent-bot/plugin`, a .ts file of src/. Run from
 * source (tsx, vitest), the bot's own loader handles both; the built bot (dist/) has none, so
 * there plugins go through tsx's, which is loaded only when a folder of plugins exists. The image
 * has no tsx (a devDependency): there Node itself runs them (it strips TypeScript's types since
 * 22.18), and `agent-bot/plugin` is dist/plugin-api.js (the "agent-bot-built" condition it runs with).
 */
const importPlugin: (url: string) => Promise<Record<string, unknown>> = import.meta.url.endsWith(".ts")
  ? (url) => import(url)
  : async (url) => {
      const tsx = await import("tsx/esm/api").catch(() => undefined);
      return tsx ? tsx.tsImport(url, import.meta.url) : import(url);
    };
const LOAD_TIMEOUT_MS = 10_000;

interface PluginProblem {
  file: string;
  reason: string;
}

export interface PluginLoadResult {
  /** Per file name, the tools it added. */
  loaded: Map<string, string[]>;
  problems: PluginProblem[];
}

/**
 * Loads every module in `dir` and adds the tools it exports (made with defineTool) to the
 * registry as plugin tools. A file that fails to import, exports no tool, or reuses a taken
 * name is logged by file name and skipped as a whole; the others still load. No folder, no plugins.
 */
export async function loadPlugins(dir: string, registry: ToolRegistry, logger: Logger): Promise<PluginLoadResult> {
  const result: PluginLoadResult = { loaded: new Map(), problems: [] };
  const files = await pluginFiles(dir, logger);
  for (const file of files) {
    const outcome = await loadPluginFile(join(resolve(dir), file), registry);
    if ("reason" in outcome) {
      result.problems.push({ file, reason: outcome.reason });
      logger.error({ plugin: file, reason: outcome.reason, err: outcome.error }, `plugin ${file} skipped: ${outcome.reason}`);
      continue;
    }
    for (const tool of outcome.tools) registry.add(tool);
    const names = outcome.tools.map((tool) => tool.name);
    result.loaded.set(file, names);
    logger.info({ plugin: file, tools: names }, `plugin ${file} loaded`);
  }
  return result;
}

async function pluginFiles(dir: string, logger: Logger): Promise<string[]> {
  if (dir.trim() === "") return [];
  try {
    if (!(await stat(dir)).isDirectory()) {
      logger.warn({ dir }, "TOOLS_DIR is not a folder; no plugins loaded");
      return [];
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && PLUGIN_FILE.test(entry.name) && !entry.name.endsWith(".d.ts"))
    .map((entry) => entry.name)
    .sort();
}

type FileOutcome = { tools: Tool[] } | { reason: string; error?: unknown };

async function loadPluginFile(path: string, registry: ToolRegistry): Promise<FileOutcome> {
  let module: Record<string, unknown>;
  try {
    module = await withTimeout(importPlugin(pathToFileURL(path).href), LOAD_TIMEOUT_MS);
  } catch (error) {
    return { reason: `it could not be loaded: ${firstLine(error)}`, error };
  }

  const exported = new Set(Object.values(module).flatMap((value) => (Array.isArray(value) ? value : [value])));
  const tools = [...exported].filter(isTool);
  if (tools.length === 0) {
    const lookalike = [...exported].some((value) => typeof value === "object" && value !== null && "run" in value && "name" in value);
    return {
      reason: lookalike ? "it exports a tool description that was not passed through defineTool({...})" : "it exports no tools made with defineTool",
    };
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (registry.has(tool.name) || seen.has(tool.name)) return { reason: `a tool named "${tool.name}" already exists` };
    seen.add(tool.name);
  }
  return { tools: tools.map(asPluginTool) };
}

/** Plugin authors call defineTool({...}) without an origin; the loader is what makes them plugin tools. */
function asPluginTool(tool: Tool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    jsonSchema: tool.jsonSchema,
    returnDirect: tool.returnDirect,
    timeoutMs: tool.timeoutMs,
    origin: "plugin",
    parseArgs: (raw) => tool.parseArgs(raw),
    run: (args, ctx) => tool.run(args, ctx),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took longer than ${ms / 1000} s to load`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? (error.name === "Error" ? error.message : `${error.name}: ${error.message}`) : String(error);
  return message.split("\n")[0]!.slice(0, 300);
}
