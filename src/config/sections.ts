import type { ProviderConnections } from "../agent/providers/open-catalog.js";
import type { AgentSettings } from "../agent/types.js";
import { visionEnabled } from "../attachments/vision.js";
import type { ReaderSettings } from "../attachments/shared-content-reader.js";
import type { ApprovalDeskOptions } from "../runner/approvals/approval-desk.js";
import { budgetDefaults } from "../runner/budgets/budget-defaults.js";
import type { DefaultBudget } from "../runner/budgets/budgets.js";
import type { PolicyDefaults } from "../runner/channel-policy.js";
import type { IntakeOptions } from "../runner/intake.js";
import type { SummarizerOptions } from "../runner/memory-summary/summarizer.js";
import type { TurnRunnerOptions } from "../runner/turn-runner.js";
import type { TracingSettings } from "../ops/tracing.js";
import type { PrunerOptions } from "../store/pruner.js";
import type { Config } from "./env.js";
import { modelChoices, providerConnections } from "./models.js";

/**
 * The configuration in the sections the parts take as they are: each part's settings, read from
 * the variables once, here. The composition root (src/app.ts) hands each part its section and
 * adds what is not configuration (the store, the logger, the other parts).
 */
export interface ConfigSections {
  /** This process run's name among those sharing the database, and how long its lease lasts. */
  instance: { name: string; leaseMs: number };
  /** The tools on by default, and where the currency tool reads its rates. */
  tools: { defaultTools: Config["DEFAULT_TOOLS"]; currencyRatesUrl: Config["CURRENCY_RATES_URL"] };
  /** The budgets every workspace, channel and user gets, the models' prices, who hears of budgets reached. */
  budgets: { defaults: DefaultBudget[]; prices: Config["MODEL_PRICES"]; adminIds: Config["BOT_ADMIN_USER_IDS"]; answerCeiling: number };
  /** The models turns may use (the first is the default), the default provider, and how to reach each provider. */
  models: { choices: string[]; provider: Config["MODEL_PROVIDER"]; connections: ProviderConnections };
  /** The agent loop: retries, protocol, limits of a turn's tool calls, the system prompt. */
  agent: AgentSettings;
  /** What a question may share: images, text files, reply chains. */
  attachments: ReaderSettings;
  /** Which models turns may use, and the memory windows and summaries servers and channels may set. */
  policy: PolicyDefaults;
  /** Who may approve a tool call, and how long a request waits. */
  approvals: Pick<ApprovalDeskOptions, "by" | "timeoutMs">;
  /** A turn's time, memory, streaming and admission limits. */
  turns: Pick<TurnRunnerOptions, "memoryTokenBudget" | "turnTimeoutMs" | "streamAnswers" | "placeHeldAtMostMs" | "limits">;
  /** When messages in line wait for earlier ones, and how steps and streamed answers are shown. */
  intake: Pick<IntakeOptions, "orderHoldMs" | "stepStartDelayMs" | "streamEditIntervalMs">;
  /** The summaries of what left the memory windows. */
  summaries: Pick<SummarizerOptions, "maxTokens" | "batchExchanges" | "model">;
  /** How long rows kept only for a while are kept (days). */
  retention: { threadDays: PrunerOptions["threadRetentionDays"]; historyDays: number; uninstallPurgeDays: number };
  /** Where turns go as traces, and how (the OTEL_* variables); none: no traces, and no OpenTelemetry module loaded. */
  tracing?: TracingSettings;
}

/** Reads the configuration's sections; `config` as loadConfig returned it. */
export function sectionsOf(config: Config): ConfigSections {
  const models = modelChoices(config);
  return {
    instance: { name: config.INSTANCE_ID ?? (config.SHARDS ? `shard-${config.SHARDS}` : "main"), leaseMs: config.INSTANCE_LEASE_MS },
    tools: { defaultTools: config.DEFAULT_TOOLS, currencyRatesUrl: config.CURRENCY_RATES_URL },
    budgets: { defaults: budgetDefaults(config), prices: config.MODEL_PRICES, adminIds: config.BOT_ADMIN_USER_IDS, answerCeiling: config.ANTHROPIC_MAX_TOKENS },
    models: { choices: models, provider: config.MODEL_PROVIDER, connections: providerConnections(config) },
    agent: {
      model: models[0]!,
      retry: { maxRetries: config.OPENAI_MAX_RETRIES, maxDelayMs: config.OPENAI_MAX_RETRY_DELAY_MS },
      protocol: config.AGENT_PROTOCOL,
      maxIterations: config.AGENT_MAX_ITERATIONS,
      earlyStopping: config.AGENT_EARLY_STOPPING,
      toolTimeoutMs: config.TOOL_TIMEOUT_MS,
      maxToolCallsPerStep: config.MAX_TOOL_CALLS_PER_STEP,
      systemPrompt: config.SYSTEM_PROMPT,
      streamIdleTimeoutMs: config.OPENAI_TIMEOUT_MS,
    },
    attachments: {
      // A channel may choose its own model: whether images are shown is decided for each turn's.
      seesImages: (model) => visionEnabled(config.VISION, model, config.AGENT_PROTOCOL),
      maxImages: config.MAX_IMAGES_PER_TURN,
      maxImageBytes: config.MAX_IMAGE_BYTES,
      maxTextBytes: config.MAX_TEXT_ATTACHMENT_BYTES,
      maxReplyChain: config.MAX_REPLY_CHAIN,
      timeoutMs: config.ATTACHMENT_TIMEOUT_MS,
    },
    policy: {
      memoryWindow: config.MEMORY_WINDOW,
      memoryWindowMax: config.MEMORY_WINDOW_MAX,
      models,
      memorySummary: config.MEMORY_SUMMARY,
    },
    approvals: { by: config.APPROVAL_BY, timeoutMs: config.APPROVAL_TIMEOUT_MS },
    turns: {
      memoryTokenBudget: config.MEMORY_TOKEN_BUDGET,
      turnTimeoutMs: config.TURN_TIMEOUT_MS,
      streamAnswers: config.STREAM_ANSWERS,
      // a turn's time, the approvals it may wait for (each pauses its time), and a minute to post its answer:
      // 28 minutes with the defaults. Only lost places wait that long: failed releases are retried (see PlaceReleases).
      placeHeldAtMostMs: config.TURN_TIMEOUT_MS + config.AGENT_MAX_ITERATIONS * config.APPROVAL_TIMEOUT_MS + 60_000,
      limits: {
        ratePerUserPerMinute: config.RATE_LIMIT_PER_USER,
        maxQuestionChars: config.MAX_QUESTION_CHARS,
        maxQueuedTurns: config.MAX_QUEUED_TURNS,
      },
    },
    intake: {
      orderHoldMs: config.TURN_ORDER_HOLD_MS,
      stepStartDelayMs: config.STEP_START_DELAY_MS,
      streamEditIntervalMs: config.STREAM_ANSWERS ? config.STREAM_EDIT_INTERVAL_MS : undefined,
    },
    summaries: { maxTokens: config.MEMORY_SUMMARY_MAX_TOKENS, batchExchanges: config.MEMORY_SUMMARY_BATCH, model: config.MEMORY_SUMMARY_MODEL },
    retention: {
      threadDays: config.BOT_THREAD_RETENTION_DAYS,
      historyDays: config.HISTORY_RETENTION_DAYS,
      uninstallPurgeDays: config.UNINSTALL_PURGE_DAYS,
    },
    ...(config.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          tracing: {
            endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
            headers: config.OTEL_EXPORTER_OTLP_HEADERS,
            serviceName: config.OTEL_SERVICE_NAME,
            content: config.OTEL_TRACE_CONTENT,
            maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE,
            scheduledDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
            exportTimeoutMs: config.OTEL_BSP_EXPORT_TIMEOUT,
          },
        }
      : {}),
  };
}
