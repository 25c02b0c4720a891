import { join } from "node:path";
import { PostgresConsoleSessions } from "./console-sessions.js";
import type pg from "pg";
import { PostgresBudgets } from "./budgets.js";
import type { Logger } from "../../log.js";
import { MIGRATIONS_ROOT } from "../migration-files.js";
import { SettingsCache } from "../settings-cache.js";
import type { Store, StoreReport, ToolSetting } from "../store.js";
import type { WorkspaceSettings } from "../workspace-settings.js";
import { redactUrl } from "../redact-url.js";
import { PostgresAuditReads } from "./audit-reads.js";
import { createPool, type ConnectionSettings } from "./connection.js";
import { PostgresConversations } from "./conversations.js";
import { PostgresInstallations } from "./installations.js";
import { PostgresInstances } from "./instances.js";
import { CHANNELS, ChangeListener } from "./listener.js";
import { applyPostgresMigrations } from "./migrate.js";
import { PostgresChannelSettings, PostgresToolFlags, PostgresWorkspaceSettings } from "./settings.js";
import { TOOL_ENABLED, TOOL_NEEDS_APPROVAL } from "../tool-flags.js";
import { PostgresApprovals } from "./approvals.js";
import { PostgresUsageReports } from "./usage-reports.js";
import { PostgresFeedback } from "./feedback.js";
import { PostgresDepartures } from "./departures.js";
import { PostgresRetention } from "./retention.js";
import { PostgresSchedules } from "./schedules.js";
import { PostgresBackfills } from "./backfills.js";
import { PostgresSummaries } from "./summaries.js";
import { PostgresHistory } from "./history.js";
import type { ApprovalSetting } from "../tool-approval-store.js";
import type { ChannelSettings } from "../channel-settings-store.js";
import { PostgresBotThreads, PostgresCurrencyRates, PostgresEventClaims } from "./small-tables.js";
import { PostgresTurnLog } from "./turn-log.js";
import { PostgresTurnQueue } from "./turn-queue.js";

export const POSTGRES_MIGRATIONS = join(MIGRATIONS_ROOT, "postgres");

export interface PostgresSettings extends ConnectionSettings {
  /** A direct connection for LISTEN when `url` goes through a transaction-mode pooler. */
  listenUrl?: string;
  logger: Logger;
  migrationsDir?: string;
}

/**
 * PostgreSQL through `pg` and its pool, for several bot processes on several hosts. Connections
 * are held for one statement or one short transaction, never for a turn; one more connection per
 * process LISTENs for the others' settings changes and released places in line.
 */
export class PostgresStore implements Store {
  readonly engine = "postgres";
  readonly conversations: PostgresConversations;
  readonly turns: PostgresTurnLog;
  readonly usage: PostgresTurnLog;
  readonly queue: PostgresTurnQueue;
  readonly events: PostgresEventClaims;
  readonly threads: PostgresBotThreads;
  readonly toolSettings: PostgresToolFlags<ToolSetting>;
  readonly workspaceSettings: PostgresWorkspaceSettings;
  readonly currencyRates: PostgresCurrencyRates;
  readonly instances: PostgresInstances;
  readonly approvals: PostgresApprovals;
  readonly toolApprovals: PostgresToolFlags<ApprovalSetting>;
  readonly channelSettings: PostgresChannelSettings;
  readonly usageReports: PostgresUsageReports;
  readonly feedback: PostgresFeedback;
  readonly departures: PostgresDepartures;
  readonly installations: PostgresInstallations;
  readonly retention: PostgresRetention;
  readonly schedules: PostgresSchedules;
  readonly backfills: PostgresBackfills;
  readonly consoleSessions: PostgresConsoleSessions;
  readonly summaries: PostgresSummaries;
  /** Budgets and what each spent (issue 25). */
  readonly budgets: PostgresBudgets;
  readonly history: PostgresHistory;
  readonly audit: PostgresAuditReads;
  private readonly listener: ChangeListener;
  /** The settings' caches: a workspace's entries go when its settings change, here or in another process. */
  private readonly settingsCaches: SettingsCache<unknown>[];
  private closing?: Promise<void>;

  private constructor(
    readonly pool: pg.Pool,
    private readonly settings: PostgresSettings,
  ) {
    this.conversations = new PostgresConversations(pool);
    this.turns = new PostgresTurnLog(pool);
    this.usage = this.turns;
    this.queue = new PostgresTurnQueue(pool, () => this.listener.listening);
    this.events = new PostgresEventClaims(pool);
    this.threads = new PostgresBotThreads(pool);
    this.toolSettings = new PostgresToolFlags(pool, TOOL_ENABLED, new SettingsCache<ReadonlyMap<string, ToolSetting>>());
    this.workspaceSettings = new PostgresWorkspaceSettings(pool, new SettingsCache<WorkspaceSettings>());
    this.currencyRates = new PostgresCurrencyRates(pool);
    this.instances = new PostgresInstances(pool);
    this.approvals = new PostgresApprovals(pool);
    this.toolApprovals = new PostgresToolFlags(pool, TOOL_NEEDS_APPROVAL, new SettingsCache<ReadonlyMap<string, ApprovalSetting>>());
    this.channelSettings = new PostgresChannelSettings(pool, new SettingsCache<ChannelSettings>());
    this.usageReports = new PostgresUsageReports(pool);
    this.feedback = new PostgresFeedback(pool);
    this.departures = new PostgresDepartures(pool, (key) => this.dropSettings(key));
    this.installations = new PostgresInstallations(pool);
    this.retention = new PostgresRetention(pool);
    this.schedules = new PostgresSchedules(pool);
    this.backfills = new PostgresBackfills(pool);
    this.consoleSessions = new PostgresConsoleSessions(pool);
    this.summaries = new PostgresSummaries(pool);
    this.budgets = new PostgresBudgets(pool);
    this.history = new PostgresHistory(pool);
    this.audit = new PostgresAuditReads(pool);
    const caches = [this.toolSettings.cache, this.workspaceSettings.cache, this.toolApprovals.cache, this.channelSettings.cache] as SettingsCache<unknown>[];
    this.settingsCaches = caches;
    this.listener = new ChangeListener(
      { ...settings, url: settings.listenUrl ?? settings.url },
      {
        [CHANNELS.settings]: (key) => {
          settings.logger.debug("a workspace's settings changed in another process");
          this.dropSettings(key);
        },
        [CHANNELS.queue]: (signal) => this.queue.notified(signal),
      },
      // No cache while changes may go unheard; everything cached before may be stale.
      (listening) => {
        for (const cache of caches) cache.setEnabled(listening);
      },
      settings.logger,
    );
    for (const cache of caches) cache.setEnabled(false);
  }

  /** Drops what this process caches of a workspace's settings (by its key). */
  private dropSettings(key: string): void {
    for (const cache of this.settingsCaches) cache.drop(key);
  }

  /** Connects, applies the migrations (once, whichever process starts first), and starts listening. */
  static async open(settings: PostgresSettings): Promise<PostgresStore> {
    const pool = createPool(settings);
    // An idle connection the server closed must not crash the process: the pool replaces it.
    pool.on("error", (error) => settings.logger.warn({ err: error }, "a PostgreSQL connection failed; the pool replaces it"));
    try {
      await applyPostgresMigrations(pool, settings.migrationsDir ?? POSTGRES_MIGRATIONS);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(`could not open the PostgreSQL database at ${redactUrl(settings.url)}: ${(error as Error).message}`, { cause: error });
    }
    const store = new PostgresStore(pool, settings);
    await store.listener.start();
    return store;
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  async inspect(): Promise<StoreReport> {
    const { rows } = await this.pool.query<{ version: number | null; turns: number }>(
      `SELECT (SELECT MAX(version) FROM schema_migrations) AS version, (SELECT COUNT(*) FROM turns)::int AS turns`,
    );
    return { location: redactUrl(this.settings.url), schemaVersion: rows[0]?.version ?? 0, turns: rows[0]?.turns ?? 0 };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.listener.stop();
      await this.pool.end();
    })();
    return this.closing;
  }
}
