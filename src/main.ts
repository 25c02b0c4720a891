import { createApp, type App } from "./app.js";
import { ConfigError, loadConfig, loadDotEnv, type Config } from "./config/env.js";
import { createLogger } from "./log.js";
import { runConsole } from "./platforms/console/console-adapter.js";
import { platforms } from "./platforms/index.js";
import type { PlatformAdapter } from "./platforms/platform.js";
import { McpConfigError } from "./tools/mcp/mcp-config.js";
import { loadToolExtensions, type ToolExtensions } from "./tools/extensions.js";

const SHUTDOWN_GRACE_MS = 10_000;

const NO_MODEL_MESSAGE = `No language model is configured: set OPENAI_API_KEY (for OpenAI) or OPENAI_BASE_URL (for a local OpenAI-compatible server).
For example, with Ollama running locally:
  OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=llama3.1 npm start
Put these in .env to keep them (see .env.example).`;

function readConfig(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) exitWith(error.message);
    exitWith(`Could not read the configuration: ${(error as Error).message}`);
  }
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const config = readConfig();
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) exitWith(NO_MODEL_MESSAGE);

  const chosen = platforms.filter((platform) => platform.configured(config));
  // The terminal is a conversation, so its default keeps log lines out of it.
  const logger = createLogger(config.LOG_LEVEL ?? (chosen.length === 0 ? "warn" : "info"));
  const app = createApp(config, logger);
  const extensions = await loadExtensions(app);

  const adapters: PlatformAdapter[] = [];
  let stopping: Promise<void> | undefined;
  const shutdown = (why: string) =>
    (stopping ??= (async () => {
      logger.info({ why }, "shutting down");
      await Promise.allSettled(adapters.map((adapter) => adapter.stop()));
      await app.runner.shutdown(SHUTDOWN_GRACE_MS);
      await extensions.close();
      app.store.close();
    })());

  if (chosen.length === 0) {
    process.once("SIGINT", () => void shutdown("SIGINT").then(() => process.exit(130)));
    process.once("SIGTERM", () => void shutdown("SIGTERM").then(() => process.exit(143)));
    await runConsole(app, { input: process.stdin, output: process.stdout });
    await shutdown("end of input");
    return;
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void shutdown(signal).then(() => process.exit(0)));
  }
  for (const platform of chosen) {
    const adapter = await platform.create(app);
    await adapter.start();
    adapters.push(adapter);
  }
}

/** Plugins and MCP tools join the registry before any platform starts; a bad MCP_CONFIG stops start-up. */
async function loadExtensions(app: App): Promise<ToolExtensions> {
  try {
    return await loadToolExtensions(app.config, app.registry, app.logger);
  } catch (error) {
    app.store.close();
    if (error instanceof McpConfigError) exitWith(error.message);
    throw error;
  }
}

main().catch((error) => {
  process.stderr.write(`The bot could not start: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
