import { z } from "zod";
import { MODEL_PROVIDERS } from "../agent/model-ref.js";
import { platformConfigSchemas, platformDefinitions, type PlatformConfig } from "../platforms/index.js";
import { isTimeZone } from "../scheduler/when.js";
import { processEnvironment } from "./environment.js";
import { bool, budgetAmount, idList, nonNegativeInt, optionalText, optionalUrl, positiveInt, proxyUrl, tokenBudget, urlTemplate } from "./fields.js";
import { BotError } from "../errors.js";

/** The core's variables; each platform adds its own (see src/platforms/<name>/config.ts). */
const coreConfigSchema = z.object({
  /** The provider of the default model, and of the names in OPENAI_MODELS without a provider before them. */
  MODEL_PROVIDER: z.enum(MODEL_PROVIDERS, { message: MODEL_PROVIDERS.join(" or ") }).default("openai"),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_MODEL: z.string().trim().min(1).default("gpt-4o-mini"),
  /**
   * The models admins may choose per channel (`settings channel model NAME`), comma separated; the
   * first is the default. A name may say its provider ("openai:gpt-4o-mini,anthropic:claude-sonnet-4-5");
   * one that does not is MODEL_PROVIDER's, as every name was before there were two providers.
   * Unset: the default provider's model (OPENAI_MODEL or ANTHROPIC_MODEL) alone.
   */
  OPENAI_MODELS: idList.refine((names) => names.every((name) => !MODEL_PROVIDERS.some((provider) => name === `${provider}:`)), {
    message: 'model names, optionally after their provider, such as "openai:gpt-4o-mini,anthropic:claude-sonnet-4-5"',
  }),
  ANTHROPIC_API_KEY: optionalText,
  /** Another endpoint of the Messages API (a gateway, a proxy); the SDK adds /v1/messages. */
  ANTHROPIC_BASE_URL: optionalUrl,
  /** The default model when MODEL_PROVIDER=anthropic. */
  ANTHROPIC_MODEL: z.string().trim().min(1).default("claude-sonnet-4-5"),
  /** The Messages API needs a cap on each answer's tokens. */
  ANTHROPIC_MAX_TOKENS: positiveInt(4_096),
  /** Prices per million tokens in and out, for the cost estimate of /usage: "gpt-4o-mini=0.15/0.60,gpt-4o=2.50/10". */
  MODEL_PRICES: z
    .string()
    .default("")
    .transform((text, context) => {
      const prices: Record<string, { input: number; output: number }> = {};
      for (const entry of text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)) {
        const match = /^([^=\s]+)\s*=\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(entry);
        if (!match) {
          context.addIssue({ code: "custom", message: 'a comma-separated list of MODEL=IN/OUT prices per million tokens, e.g. "gpt-4o-mini=0.15/0.60"' });
          return z.NEVER;
        }
        prices[match[1]!] = { input: Number(match[2]), output: Number(match[3]) };
      }
      return prices;
    }),
  OPENAI_MAX_RETRIES: z.coerce
    .number({ message: "a whole number, 0 or more" })
    .int({ message: "a whole number, 0 or more" })
    .min(0, { message: "a whole number, 0 or more" })
    .default(2),
  /** The longest wait before retrying a model call; a longer Retry-After is cut to this. */
  OPENAI_MAX_RETRY_DELAY_MS: positiveInt(10_000),
  OPENAI_TIMEOUT_MS: positiveInt(60_000),
  AGENT_PROTOCOL: z.enum(["tools", "react"], { message: "tools or react" }).default("tools"),
  AGENT_MAX_ITERATIONS: positiveInt(5),
  AGENT_EARLY_STOPPING: z.enum(["generate", "force"], { message: "generate or force" }).default("generate"),
  TOOL_TIMEOUT_MS: positiveInt(15_000),
  /** Who may approve a tool call that needs approval: the asker (or an admin), or admins only. */
  APPROVAL_BY: z.enum(["asker", "admin"], { message: "asker or admin" }).default("asker"),
  /** How long a request for approval waits for a press; then the call does not run. */
  APPROVAL_TIMEOUT_MS: positiveInt(5 * 60_000),
  /** Tool calls run from one model response; the model is told the rest did not run. */
  MAX_TOOL_CALLS_PER_STEP: positiveInt(8),
  /**
   * A tool step is posted as "running" only if the tool takes longer than this; quicker steps are
   * posted once, with their result (half the chat API calls). The working indicator (typing, the
   * ⏳ reaction) also waits this long, so a quicker answer makes no call for it. 0 shows both at once.
   */
  STEP_START_DELAY_MS: z.coerce
    .number({ message: "a whole number of ms, 0 or more" })
    .int({ message: "a whole number of ms, 0 or more" })
    .min(0, { message: "a whole number of ms, 0 or more" })
    .default(400),
  TURN_TIMEOUT_MS: positiveInt(120_000),
  /**
   * A Slack message's turn starts no sooner than this long after Slack stamped the message, in case
   * an earlier message of its conversation is still on its way (to this process or another): the
   * earlier one then goes first. At most this long from its arrival; 0 turns it off.
   */
  TURN_ORDER_HOLD_MS: z.coerce
    .number({ message: "a whole number of ms from 0 to 5000" })
    .int({ message: "a whole number of ms from 0 to 5000" })
    .min(0, { message: "a whole number of ms from 0 to 5000" })
    .max(5_000, { message: "a whole number of ms from 0 to 5000" })
    .default(300),
  /** Show the answer while the model writes it (edited in place, or the platform's own streaming). */
  STREAM_ANSWERS: bool(true),
  /** A streamed answer's message is edited at most once per this many ms (and a channel's writes share a budget). */
  STREAM_EDIT_INTERVAL_MS: positiveInt(1_000),
  MEMORY_WINDOW: positiveInt(5),
  MEMORY_TOKEN_BUDGET: positiveInt(3_000),
  /** The largest memory window an admin may set for a workspace. */
  MEMORY_WINDOW_MAX: positiveInt(20),
  /** A summary of what left each conversation's window (issue 24): "off" turns it off everywhere. */
  MEMORY_SUMMARY: bool(true),
  /** The summary's model; unset, the conversation's own. */
  MEMORY_SUMMARY_MODEL: optionalText,
  /** Rough token cap of the summary (and of the fallback that stands in for it). */
  MEMORY_SUMMARY_MAX_TOKENS: positiveInt(800),
  /** Exchanges that left the window before a summary call is made for them (1: a call after every exchange). */
  MEMORY_SUMMARY_BATCH: positiveInt(5),
  /** Threads the bot opened are forgotten (follow-ups there need a mention again) after this many days without a turn. */
  BOT_THREAD_RETENTION_DAYS: positiveInt(30),
  /** Indexed messages and stored exchanges older than this many days are pruned (issue 24 §3). */
  HISTORY_RETENTION_DAYS: positiveInt(90),
  /** Days a workspace's data is kept after the app is uninstalled there, for a reinstall (issue 27); 0 purges it at once. */
  UNINSTALL_PURGE_DAYS: nonNegativeInt(30),
  RATE_LIMIT_PER_USER: positiveInt(6),
  /** Tokens a workspace may spend per UTC day; empty, 0 or "unlimited" means no limit. */
  DAILY_TOKEN_BUDGET: tokenBudget,
  /** Tokens one user may spend per UTC day in a workspace; empty, 0 or "unlimited" means no limit. */
  DAILY_USER_TOKEN_BUDGET: tokenBudget,
  /** A workspace's budget per day in tokens or dollars ("$20"; dollars need MODEL_PRICES); replaces DAILY_TOKEN_BUDGET's for calls. */
  DAILY_BUDGET: budgetAmount,
  /** A workspace's budget per calendar month, in tokens ("2M") or dollars ("$300"). */
  MONTHLY_BUDGET: budgetAmount,
  /** The same in tokens (either name; MONTHLY_BUDGET wins). */
  MONTHLY_TOKEN_BUDGET: budgetAmount,
  /** Each channel's budget per day (its threads count to it), in tokens or dollars. */
  CHANNEL_DAILY_TOKEN_BUDGET: budgetAmount,
  MAX_QUESTION_CHARS: positiveInt(4_000),
  /** Images go to the model as image parts: on, off, or auto (on for model names known to see images). */
  VISION: z.enum(["auto", "on", "off"], { message: "auto, on or off" }).default("auto"),
  MAX_IMAGES_PER_TURN: positiveInt(5),
  /** Larger images are named to the model, not sent. */
  MAX_IMAGE_BYTES: positiveInt(10 * 1024 * 1024),
  /** Text files inlined in one question, in all; the rest is cut with a marker. */
  MAX_TEXT_ATTACHMENT_BYTES: positiveInt(100 * 1024),
  /** Messages of a reply chain read with a question (the replied-to message is the first); 0 reads none. */
  MAX_REPLY_CHAIN: nonNegativeInt(5),
  /** Reading what a question shares (its files, its reply chain) ends after this long; the turn goes on without the rest. */
  ATTACHMENT_TIMEOUT_MS: positiveInt(10_000),
  MAX_QUEUED_TURNS: positiveInt(5),
  SHUTDOWN_GRACE_MS: positiveInt(10_000),
  /** Scheduled tasks (issue 26): the time zone of their times where a workspace sets none (`/settings timezone`). */
  SCHEDULE_TIMEZONE: z
    .string()
    .trim()
    .default("UTC")
    .refine((zone) => isTimeZone(zone), { message: 'an IANA time-zone name such as "Europe/Paris"' }),
  SCHEDULE_MAX_PER_WORKSPACE: positiveInt(20),
  /** A recurring task may not run more often than this. */
  SCHEDULE_MIN_INTERVAL_MINUTES: positiveInt(5),
  /** A time missed while no process was up runs once at start-up if it was due within this long; older ones are recorded as missed. */
  SCHEDULE_CATCHUP_MS: nonNegativeInt(60 * 60_000),
  /**
   * Names this process in the turns table and the database's list of processes (a random suffix
   * tells its runs apart). Default: "shard-N" under discord.js's ShardingManager (from SHARDS), else "main".
   */
  INSTANCE_ID: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,64}$/, { message: 'letters, digits, ".", "-" or "_"' })
    .optional(),
  /** Port of the /healthz and /metrics endpoint; off when unset. */
  HEALTH_PORT: z.coerce
    .number({ message: "a port number" })
    .int({ message: "a port number" })
    .min(1, { message: "a port number" })
    .max(65535, { message: "a port number" })
    .optional(),
  /**
   * Address the health server of its own binds: loopback unless asked, since /metrics and /healthz
   * describe the bot to anyone who can reach them. A container sets 0.0.0.0 (its port is published on the host's loopback).
   */
  HEALTH_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /**
   * The proxy the bot's own HTTP requests go through (the model, Slack's Web API, the knowledge
   * tools), for https:// and http:// addresses; the lower-case spellings are read too. May hold a
   * password, so never shown.
   */
  HTTPS_PROXY: proxyUrl,
  HTTP_PROXY: proxyUrl,
  /** Hosts reached without the proxy: names (each with its subdomains), host:port, or *. */
  NO_PROXY: optionalText,
  /** Port of the operator's console (docs/console.md); off when unset. */
  CONSOLE_PORT: z.coerce
    .number({ message: "a port number" })
    .int({ message: "a port number" })
    .min(1, { message: "a port number" })
    .max(65535, { message: "a port number" })
    .optional(),
  /** The address the console binds to; another than loopback needs a platform sign-in or an https CONSOLE_PUBLIC_URL. */
  CONSOLE_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** The operator's sign-in to the console: whoever has it sees every workspace. */
  CONSOLE_TOKEN: optionalText,
  /** The console's address as people open it (behind a proxy), such as https://bot.example.com. */
  CONSOLE_PUBLIC_URL: optionalUrl,
  /** A console session ends this many hours after sign-in. */
  CONSOLE_SESSION_HOURS: positiveInt(12),
  /**
   * An OpenTelemetry collector's OTLP/HTTP address (http://127.0.0.1:4318): each turn is exported
   * there as a trace (docs/production.md). Unset, the OpenTelemetry packages are not even loaded.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** Headers sent with every export ("authorization=Bearer abc,x-team=1"); may hold a token, so never shown. */
  OTEL_EXPORTER_OTLP_HEADERS: optionalText,
  /** The traces' service.name. */
  OTEL_SERVICE_NAME: z.string().trim().min(1).default("agent-bot"),
  /** Spans carry what was said (tool arguments and results, error messages) only when this is on. */
  OTEL_TRACE_CONTENT: bool(false),
  /** Spans waiting for export at most; more are dropped, so a dead collector never grows memory. */
  OTEL_BSP_MAX_QUEUE_SIZE: positiveInt(2048),
  /** Spans are sent in batches this many ms apart. */
  OTEL_BSP_SCHEDULE_DELAY: positiveInt(5000),
  /** An export still unanswered after this many ms is given up (its spans are dropped). */
  OTEL_BSP_EXPORT_TIMEOUT: positiveInt(10_000),
  DATABASE_PATH: z.string().trim().min(1).default("./data/bot.sqlite"),
  /**
   * SQLite's page cache per connection, in MB. better-sqlite3 builds SQLite with 16 MB, which a
   * busy bot fills and keeps resident; the OS caches the file as well, so 2 MB costs no CPU per
   * turn at 10,000 turns nor window-read time at a million messages (docs/production.md, Footprint).
   */
  DATABASE_CACHE_MB: positiveInt(2),
  /** PostgreSQL instead of the SQLite file, for several processes on several hosts: postgres://user:password@host:5432/db. */
  DATABASE_URL: z
    .string()
    .trim()
    .transform((s) => (s === "" ? undefined : s))
    .refine((s) => s === undefined || isPostgresUrl(s), { message: "a postgres:// or postgresql:// URL" })
    .optional(),
  /**
   * A direct connection for LISTEN, when DATABASE_URL goes through a pooler in transaction mode
   * (where LISTEN cannot work). Default: DATABASE_URL.
   */
  DATABASE_LISTEN_URL: z
    .string()
    .trim()
    .transform((s) => (s === "" ? undefined : s))
    .refine((s) => s === undefined || isPostgresUrl(s), { message: "a postgres:// or postgresql:// URL" })
    .optional(),
  /** Connections each process keeps to PostgreSQL at most. */
  DATABASE_POOL_SIZE: positiveInt(10),
  /** The longest wait for PostgreSQL: a connection, a statement, a lock. */
  DATABASE_TIMEOUT_MS: positiveInt(10_000),
  /** A process that has not renewed its lease for this long is taken for dead by the others sharing the database. */
  INSTANCE_LEASE_MS: z.coerce
    .number({ message: "a whole number of ms, 1000 or more" })
    .int({ message: "a whole number of ms, 1000 or more" })
    .min(1_000, { message: "a whole number of ms, 1000 or more" })
    .default(30_000),
  DEFAULT_TOOLS: z
    .string()
    .default("calculator,circumference,hypotenuse,get_time,convert_currency,wikipedia,arxiv,web_search,search_history,create_reminder")
    .transform((s) => {
      const trimmed = s.trim();
      if (trimmed.toLowerCase() === "all") return "all" as const;
      return trimmed
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
    }),
  SYSTEM_PROMPT: optionalText,
  CURRENCY_RATES_URL: z
    .string()
    .trim()
    .default("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
    .pipe(z.url({ message: "a URL" })),
  WIKIPEDIA_LANG: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9-]{1,15}$/, { message: "a Wikipedia language code such as en, de or zh-yue" })
    .default("en"),
  WIKIPEDIA_API_URL: urlTemplate("https://{lang}.wikipedia.org/w/api.php", "{lang}"),
  ARXIV_API_URL: urlTemplate("https://export.arxiv.org/api/query"),
  DUCKDUCKGO_URL: urlTemplate("https://html.duckduckgo.com/html/"),
  SEARXNG_URL: optionalUrl,
  KNOWLEDGE_TIMEOUT_MS: positiveInt(8_000),
  KNOWLEDGE_USER_AGENT: z.string().trim().min(1).default("agent-bot/0.1 (self-hosted Discord/Slack agent bot)"),
  /** Folder of plugin modules; "none" turns plugins off. */
  TOOLS_DIR: z
    .string()
    .trim()
    .default("./tools")
    .transform((dir) => (/^(none|off)$/i.test(dir) ? "" : dir)),
  MCP_CONFIG: optionalText,
  /** "json" (lines for a log collector) or "text" (a readable line each); default: text for the terminal, json otherwise. */
  LOG_FORMAT: z.enum(["json", "text"], { message: "json or text" }).optional(),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "one of fatal, error, warn, info, debug, trace, silent",
    })
    .optional(),
  BOT_ADMIN_USER_IDS: idList,
  /** Set by discord.js's ShardingManager in each shard process it starts. */
  SHARDS: optionalText,
});

/** Each platform's rules across its variables; they also run when a variable was refused, and skip it. */
const configSchema = coreConfigSchema.extend(platformConfigSchemas).superRefine((config, context) => {
  for (const platform of platformDefinitions) {
    for (const issue of platform.check?.(config as never) ?? []) context.addIssue({ code: "custom", path: [issue.variable], message: issue.message });
  }
});

/** The names of all the bot's variables, the core's and every platform's. */
export const knownVariables = (): string[] => Object.keys(configSchema.shape);

type CoreConfig = z.output<typeof coreConfigSchema>;
export type Config = CoreConfig & PlatformConfig;

/** Variables also read in lower case, as other programs spell them. */
export const LOWER_CASE_VARIABLES: ReadonlySet<string> = new Set(["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]);

export class ConfigError extends BotError<"config_invalid"> {
  override readonly name = "ConfigError";
  constructor(message: string, options?: ErrorOptions) {
    super("config_invalid", message, options);
  }
}

/**
 * Validates the environment. Throws ConfigError with one line per bad variable,
 * each naming the variable, what it expects and what it got — never a stack trace for users.
 * Empty values count as unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv = processEnvironment()): Config {
  // An empty value ("HEALTH_PORT=" in a copied .env.example) means "not set", as for unset variables.
  const known = Object.fromEntries(
    Object.keys(configSchema.shape).flatMap((key) => {
      // https_proxy and the rest are as often set in lower case (curl reads only that), which wins, as in undici.
      const value = LOWER_CASE_VARIABLES.has(key) ? (env[key.toLowerCase()] ?? env[key]) : env[key];
      return value === undefined || value.trim() === "" ? [] : [[key, value]];
    }),
  );
  const parsed = configSchema.safeParse(known);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "configuration");
    // DATABASE_URL may hold a password.
    const secret = /(_KEY|_TOKEN|_SECRET|_PROXY)$/.test(name) || (name.startsWith("DATABASE_") && name.endsWith("_URL"));
    const got = secret ? undefined : env[name];
    const expected = issue.message.replace(/^Invalid (input|option): expected /i, "");
    return `${name} must be ${expected}${got === undefined ? "" : ` (got "${got}")`}`;
  });
  throw new ConfigError(`Configuration error:\n  ${lines.join("\n  ")}`);
}

function isPostgresUrl(text: string): boolean {
  try {
    return ["postgres:", "postgresql:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Loads `.env` from the working directory when present, without overriding the real environment. */
export function loadDotEnv(path = ".env"): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
