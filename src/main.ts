import type { Server } from "node:http";
import { createApp, type App } from "./app.js";
import { ConfigError, loadConfig, loadDotEnv, type Config } from "./config/env.js";
import { createLogger } from "./log.js";
import { createHealthHandler, startHealthServer } from "./ops/health.js";
import { BotMetrics } from "./ops/metrics.js";
import { runConsole } from "./platforms/console/console-adapter.js";
import { platforms } from "./platforms/index.js";
import type { PlatformAdapter, PlatformContext } from "./platforms/platform.js";
import { closeCpuPool } from "./tools/cpu/cpu-pool.js";
import { loadToolExtensions, type ToolExtensions } from "./tools/extensions.js";
import { McpConfigError } from "./tools/mcp/mcp-config.js";

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
  // Called only once turns run, when `app` exists.
  const metrics = new BotMetrics({ isKnownTool: (name) => app.registry.has(name) });
  const app = createApp(config, logger, { observer: metrics });
  metrics.bindGauges({
    inFlightTurns: () => app.runner.inFlight,
    activeConversationQueues: () => app.runner.activeConversations,
  });
  const extensions = await loadExtensions(app);

  const adapters: PlatformAdapter[] = [];
  let healthServer: Server | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = (why: string, graceMs = config.SHUTDOWN_GRACE_MS) =>
    (stopping ??= (async () => {
      logger.info({ why }, "shutting down");
      // Turns finish (or tell their users the bot restarted) while the platforms are still connected.
      await app.runner.shutdown(graceMs);
      await Promise.allSettled(adapters.map((adapter) => adapter.stop()));
      healthServer?.close();
      await extensions.close();
      await closeCpuPool();
      app.store.close();
    })());

  const context: PlatformContext = {};
  if (config.HEALTH_PORT !== undefined) {
    const handler = createHealthHandler({ store: app.store, metrics, platforms: () => adapters });
    const host = chosen.find((platform) => platform.httpPort?.(config) === config.HEALTH_PORT);
    if (host) {
      context.sharedRoutes = { paths: ["/healthz", "/metrics"], handler };
      logger.info({ port: config.HEALTH_PORT, sharedWith: host.name }, "health and metrics served on the platform's HTTP server");
    } else {
      healthServer = await startHealthServer(config.HEALTH_PORT, handler);
      logger.info({ port: config.HEALTH_PORT }, "health and metrics endpoint listening");
    }
  }

  if (chosen.length === 0) {
    // Ctrl-C in a terminal means "stop now": the running turn is cancelled at once.
    process.once("SIGINT", () => void shutdown("SIGINT", 0).then(() => process.exit(130)));
    process.once("SIGTERM", () => void shutdown("SIGTERM").then(() => process.exit(143)));
    await runConsole(app, { input: process.stdin, output: process.stdout });
    await shutdown("end of input");
    return;
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void shutdown(signal).then(() => process.exit(0)));
  }
  for (const platform of chosen) {
    const adapter = await platform.create(app, context);
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
