import { Agent } from "./agent/agent.js";
import { openModelCatalog } from "./agent/providers/open-catalog.js";
import { SharedContentReader } from "./attachments/shared-content-reader.js";
import type { Config } from "./config/env.js";
import { sectionsOf } from "./config/sections.js";
import { storeSettingsOf } from "./config/store-settings.js";
import type { Logger } from "./log.js";
import { ApprovalDesk } from "./runner/approvals/approval-desk.js";
import { ChannelPolicies } from "./runner/channel-policy.js";
import { BudgetAlerts } from "./runner/budgets/budget-alerts.js";
import { Budgets } from "./runner/budgets/budgets.js";
import { BotCommands } from "./runner/commands/bot-commands.js";
import { BudgetCommands } from "./runner/commands/budget-commands.js";
import { HistoryBackfills } from "./runner/history-backfill.js";
import { HistoryRecorder, type ForgetHook } from "./runner/history-recorder.js";
import { InstanceLease } from "./runner/instance-lease.js";
import { StorePruner } from "./store/pruner.js";
import { WorkspacePurge } from "./store/workspace-purge.js";
import { MessageIntake } from "./runner/intake.js";
import { FeedbackDesk } from "./runner/feedback-desk.js";
import { HomeSummaries } from "./runner/home-summary.js";
import { PlatformLinks } from "./runner/platform-link.js";
import { RestartNotices } from "./runner/restart-notices.js";
import { ConversationSummarizer } from "./runner/memory-summary/summarizer.js";
import { ToolAccess } from "./runner/tool-access.js";
import type { TurnObserver } from "./runner/turn-observer.js";
import { TurnRunner } from "./runner/turn-runner.js";
import { UsageReports } from "./runner/usage-report.js";
import { openStore } from "./store/open-store.js";
import type { Store } from "./store/store.js";
import type { Tool } from "./tools/define-tool.js";
import { builtinTools } from "./tools/builtin/index.js";
import { ToolRegistry } from "./tools/registry.js";
import { createScheduling } from "./scheduler/scheduling.js";
import type { Scheduler } from "./scheduler/scheduler.js";
import { useProxy } from "./net/proxy.js";

/** The core, built once per process: the composition root. Platforms never see it, only `links`. */
export interface App {
  config: Config;
  logger: Logger;
  store: Store;
  registry: ToolRegistry;
  access: ToolAccess;
  approvals: ApprovalDesk;
  runner: TurnRunner;
  /** Conversation summaries, updated after answers (issue 24). */
  summaries: ConversationSummarizer;
  commands: BotCommands;
  intake: MessageIntake;
  links: PlatformLinks;
  /** Budgets, channel policies and usage reports, for the operator's console (as the commands see them). */
  budgets: Budgets;
  policies: ChannelPolicies;
  usage: UsageReports;
  /** Runs scheduled tasks (issue 26). */
  scheduler: Scheduler;
  /** This process's lease in the database (its id names its turns). */
  lease: InstanceLease;
  /** Writes to the history index, off the turns' path. */
  history: HistoryRecorder;
  /** Departed workspaces (uninstalls): their data purged after UNINSTALL_PURGE_DAYS (issue 27). */
  purge: WorkspacePurge;
  /** Reads channels' earlier messages into the history index (`settings channel history backfill`). */
  backfills: HistoryBackfills;
  /** Gives up the lease (turns still running are marked interrupted) and closes the store; once is enough. */
  close(): Promise<void>;
}

export interface AppOptions {
  /** Tools added after the built-ins (plugins, MCP, tests). */
  extraTools?: Tool[];
  /** A store already open (tests); else the configured one is opened, and closed by `close()` either way. */
  store?: Store;
  observer?: TurnObserver;
  /** Told when messages are forgotten (deleted on the platform, forget-me), for what keeps text derived from them. */
  forgetHooks?: ForgetHook[];
  /** The backfills' pace (tests: no pause between pages). */
  backfillPacing?: { pageIntervalMs?: number; progressEveryPages?: number };
}

/** Answers longer than this many messages send the rest as a file. */
const MAX_ANSWER_MESSAGES = 5;

export async function createApp(config: Config, logger: Logger, options: AppOptions = {}): Promise<App> {
  // Before any client is made: every request of the bot's own goes through the proxy configured, if any.
  useProxy(config);
  const sections = sectionsOf(config);
  const store = options.store ?? (await openStore(storeSettingsOf(config, logger)));
  const notices = new RestartNotices(store.instances, logger);
  const lease = new InstanceLease(store, sections.instance.name, sections.instance.leaseMs, logger, () => notices.deliver());
  try {
    await lease.start();
  } catch (error) {
    await store.close();
    throw error;
  }

  const pruner = new StorePruner(store.retention, {
    threadRetentionDays: sections.retention.threadDays,
    history: { index: store.history, retentionDays: sections.retention.historyDays },
    logger,
  });
  pruner.start();
  const purge = new WorkspacePurge(store.departures, { purgeDays: sections.retention.uninstallPurgeDays, logger });
  purge.start();

  const scheduling = createScheduling(config, store, logger, lease.run.id);
  const registry = new ToolRegistry([
    ...builtinTools({
      currency: { store: store.currencyRates, ratesUrl: sections.tools.currencyRatesUrl },
      knowledge: config,
      reminders: scheduling.reminders,
      history: store.history,
      // The recorder is made below; a search runs long after.
      historyWritten: () => history.caughtUp(),
    }),
    ...(options.extraTools ?? []),
  ]);
  const access = new ToolAccess(
    registry,
    { settings: store.toolSettings, approvals: store.toolApprovals, channels: store.channelSettings },
    sections.tools.defaultTools,
  );
  const models = sections.models.choices;
  const policies = new ChannelPolicies(store.workspaceSettings, store.channelSettings, access, sections.policy);
  const approvals = new ApprovalDesk({ ...sections.approvals, store: store.approvals, logger, instance: lease.run.id });
  const observer = options.observer;
  const modelCalls = observer?.modelCallFinished ? { modelCallFinished: observer.modelCallFinished.bind(observer) } : undefined;
  const catalog = await openModelCatalog(models, sections.models.provider, sections.models.connections, modelCalls);
  const agent = new Agent(catalog, sections.agent);
  const reader = new SharedContentReader(sections.attachments);
  // Budgets (issue 25): checked before every model call; alerts go out through the platforms that connect.
  const alerts = new BudgetAlerts({ repository: store.budgets, settings: store.workspaceSettings, adminIds: sections.budgets.adminIds, logger });
  const budgets = new Budgets({
    ...{ repository: store.budgets, defaults: sections.budgets.defaults, prices: sections.budgets.prices, logger, alerts },
    answerCeiling: sections.budgets.answerCeiling,
  });
  const summaries = new ConversationSummarizer({
    store,
    models: catalog,
    logger,
    ...sections.summaries,
    budgets,
  });
  const history = new HistoryRecorder(store.history, logger, [summaries.forgetHook, ...(options.forgetHooks ?? [])]);
  const backfills = new HistoryBackfills({ repository: store.backfills, index: store.history, logger, owner: lease.run.id, ...options.backfillPacing });
  // Loaded only when traces are exported: without the variable no OpenTelemetry package is imported.
  const tracer = sections.tracing ? (await import("./ops/tracing.js")).startTurnTracer(sections.tracing, logger) : undefined;
  const runner = new TurnRunner({
    tracer,
    summaries,
    agent,
    reader,
    store,
    policies,
    approvals,
    logger,
    ...sections.turns,
    instance: lease.run.id,
    observer: options.observer,
    budgets,
    history,
  });
  const usage = new UsageReports(store.usageReports, sections.budgets.prices);
  const commands = new BotCommands({
    schedules: scheduling.commands,
    access,
    policies,
    memory: store.conversations,
    workspaceSettings: store.workspaceSettings,
    channelSettings: store.channelSettings,
    usage,
    memoryTokenBudget: sections.turns.memoryTokenBudget,
    summaries: store.summaries,
    budgets: new BudgetCommands({ budgets, repository: store.budgets, settings: store.workspaceSettings, prices: sections.budgets.prices, models }),
    history: { index: store.history, recorder: history, backfill: { backfills, retentionDays: sections.retention.historyDays } },
  });
  const intake = new MessageIntake({
    store,
    runner,
    logger,
    instance: lease.run.id,
    ...sections.intake,
    maxAnswerMessages: MAX_ANSWER_MESSAGES,
    history,
  });
  const feedback = new FeedbackDesk(store.feedback, logger);
  const home = new HomeSummaries({ budgets, usage: store.usageReports, settings: store.workspaceSettings });
  const links = new PlatformLinks({ intake, commands, access, approvals, feedback, home, models, notices, alerts, outlets: scheduling.poster, backfills });
  scheduling.scheduler.start();
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await pruner.stop();
      await purge.stop();
      await scheduling.scheduler.stop();
      await summaries.stop();
      await backfills.stop();
      await history.idle();
      await lease.stop().catch((error: unknown) => logger.warn({ err: error }, "could not give up this process's lease"));
      await tracer?.shutdown();
      await store.close();
    })());
  return {
    config,
    logger,
    store,
    registry,
    access,
    approvals,
    runner,
    summaries,
    commands,
    intake,
    links,
    lease,
    history,
    purge,
    backfills,
    close,
    scheduler: scheduling.scheduler,
    budgets,
    policies,
    usage,
  };
}
