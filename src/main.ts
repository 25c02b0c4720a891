import type { Server } from "node:http";
import { createApp, type App } from "./app.js";
import { loadConfig, loadDotEnv, type Config } from "./config/env.js";
import { misspelledVariables } from "./config/misspelled-variables.js";
import { providersInUse } from "./config/models.js";
import { createLogger } from "./log.js";
import { createHealthHandler, HEALTH_PATHS, startHealthServer } from "./ops/health.js";
import type { PlatformAdapter } from "./contract/platform.js";
import { choosePlatforms, createPlatform, servicesFor, type SharedServices } from "./start-platforms.js";
import { consoleSettingsOf, consoleStartProblem, type ConsoleServer } from "./console/console-server.js";
import { startConsoleFor } from "./start-console.js";
import { closeCpuPool } from "./tools/cpu/cpu-pool.js";
import { IdleMemoryRelease, releaseMemory } from "./ops/idle-memory.js";
import { loadToolExtensions, type ToolExtensions } from "./tools/extensions.js";
import { hasCode } from "./errors.js";

const NO_MODEL_MESSAGE = `No language model is configured: set OPENAI_API_KEY (for OpenAI) or OPENAI_BASE_URL (for a local OpenAI-compatible server).
For example, with Ollama running locally:
  OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=llama3.1 npm start
Put these in .env to keep them (see .env.example).`;
const NO_ANTHROPIC_KEY_MESSAGE = `A model of the anthropic provider is configured (MODEL_PROVIDER=anthropic, or a name "anthropic:..." in OPENAI_MODELS), but no key:
set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a gateway that needs none). See .env.example.`;

function readConfig(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (error) {
    if (hasCode(error, "config_invalid")) exitWith(error.message);
    exitWith(`Could not read the configuration: ${(error as Error).message}`);
  }
}

function exitWith(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const config = readConfig();
  const providers = providersInUse(config);
  if (providers.includes("openai") && !config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) exitWith(NO_MODEL_MESSAGE);
  if (providers.includes("anthropic") && !config.ANTHROPIC_API_KEY && !config.ANTHROPIC_BASE_URL) exitWith(NO_ANTHROPIC_KEY_MESSAGE);

  const consoleProblem = config.CONSOLE_PORT === undefined ? undefined : consoleStartProblem(consoleSettingsOf(config));
  if (consoleProblem) exitWith(consoleProblem);

  const chosen = choosePlatforms(config);
  // The terminal is a conversation, so its default keeps log lines out of it.
  const conversational = chosen.every((platform) => platform.fallback);
  const logger = createLogger(config.LOG_LEVEL ?? (conversational ? "warn" : "info"), 2, config.LOG_FORMAT ?? (conversational ? "text" : "json"));
  for (const warning of misspelledVariables()) logger.warn(warning);
  // Only where they are served (HEALTH_PORT): prom-client costs about 40 ms at start, and each turn a few µs.
  // isKnownTool is called only once turns run, when `app` exists.
  const metrics =
    config.HEALTH_PORT === undefined ? undefined : new (await import("./ops/metrics.js")).BotMetrics({ isKnownTool: (name) => app.registry.has(name) });
  const app = await createApp(config, logger, { observer: metrics });
  metrics?.bindGauges({
    inFlightTurns: () => app.runner.inFlight,
    activeConversationQueues: () => app.runner.activeConversations,
  });
  const extensions = await loadExtensions(app);

  const adapters: PlatformAdapter[] = [];
  let healthServer: Server | undefined;
  let idleMemory: IdleMemoryRelease | undefined;
  let consoleServer: ConsoleServer | undefined;
  let stopping: Promise<void> | undefined;
  // Ready (/readyz) once every platform started, until shutdown begins.
  let started = false;
  const shutdown = (why: string, graceMs = config.SHUTDOWN_GRACE_MS) =>
    (stopping ??= (async () => {
      logger.info({ why }, "shutting down");
      idleMemory?.stop();
      // Turns finish (or tell their users the bot restarted) while the platforms are still connected.
      await app.runner.shutdown(graceMs);
      await Promise.allSettled(adapters.map((adapter) => adapter.stop()));
      healthServer?.close();
      await consoleServer?.close();
      await extensions.close();
      await closeCpuPool();
      await app.close();
    })());

  const shared: SharedServices = { streams: { input: process.stdin, output: process.stdout } };
  if (config.HEALTH_PORT !== undefined && metrics) {
    const handler = createHealthHandler({ store: app.store, metrics, platforms: () => adapters, accepting: () => started && !stopping });
    const host = chosen.find((platform) => platform.httpPort?.(config) === config.HEALTH_PORT);
    if (host) {
      shared.sharedRoutes = { paths: HEALTH_PATHS, handler };
      logger.info({ port: config.HEALTH_PORT, sharedWith: host.name }, "health and metrics served on the platform's HTTP server");
    } else {
      healthServer = await startHealthServer(config.HEALTH_PORT, handler, config.HEALTH_HOST);
      logger.info({ port: config.HEALTH_PORT, host: config.HEALTH_HOST }, "health and metrics endpoint listening");
    }
  }

  const services = servicesFor(app, shared);
  for (const platform of chosen) adapters.push(await createPlatform(platform, services));
  const interactive = adapters.some((adapter) => adapter.interactive);
  // In a terminal Ctrl-C means "stop now": the running turn is cancelled at once.
  process.once("SIGINT", () => void shutdown("SIGINT", interactive ? 0 : config.SHUTDOWN_GRACE_MS).then(() => process.exit(interactive ? 130 : 0)));
  process.once("SIGTERM", () => void shutdown("SIGTERM").then(() => process.exit(interactive ? 143 : 0)));
  for (const adapter of adapters) await adapter.start();
  if (config.CONSOLE_PORT !== undefined) {
    consoleServer = await startConsoleFor(app, () => adapters);
    logger.info({ host: config.CONSOLE_HOST, port: consoleServer.port }, "the operator's console is listening");
  }
  idleMemory = new IdleMemoryRelease({
    turnsStarted: () => app.runner.turnsStarted,
    inFlight: () => app.runner.inFlight,
    release: () => {
      const began = performance.now();
      releaseMemory();
      logger.debug(
        { ms: Math.round(performance.now() - began), rssMb: Math.round(process.memoryUsage.rss() / 1048576) },
        "gave the memory of start-up or the last turns back",
      );
    },
  });
  // Start-up (the SDKs loaded, the platforms connected) leaves a burst's garbage: a server gives it
  // back now, not 10 s later. The terminal is a conversation: its first answer would wait for it.
  if (!conversational) idleMemory.releaseNow();
  started = true;

  const finished = adapters.flatMap((adapter) => (adapter.finished ? [adapter.finished] : []));
  if (finished.length > 0) {
    await Promise.race(finished);
    await shutdown("end of input");
  }
}

/** Plugins and MCP tools join the registry before any platform starts; a bad MCP_CONFIG stops start-up. */
async function loadExtensions(app: App): Promise<ToolExtensions> {
  try {
    return await loadToolExtensions(app.config, app.registry, app.logger);
  } catch (error) {
    await app.close();
    if (hasCode(error, "mcp_config_invalid")) exitWith(error.message);
    throw error;
  }
}

main().catch((error) => {
  process.stderr.write(`The bot could not start: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
