import { SqliteAuditReads } from "./audit-reads.js";
import { SqliteConsoleSessions } from "./console-sessions.js";
import { SqliteBudgets } from "./budgets.js";
import type { Logger } from "../../log.js";
import type { Store, StoreReport } from "../store.js";
import { SqliteApprovals } from "./approvals.js";
import { SqliteConversations } from "./conversations.js";
import { openDatabase, SQLITE_MIGRATIONS, type Db } from "./database.js";
import { SqliteInstallations } from "./installations.js";
import { SqliteInstances } from "./instances.js";
import { sqliteSettings } from "./settings.js";
import { SqliteBotThreads, SqliteCurrencyRates, SqliteEventClaims } from "./small-tables.js";
import { SqliteTurnLog } from "./turn-log.js";
import { SqliteTurnQueue } from "./turn-queue.js";
import { SqliteUsageReports } from "./usage-reports.js";
import { SqliteFeedback } from "./feedback.js";
import { SqliteDepartures } from "./departures.js";
import { SqliteRetention } from "./retention.js";
import { SqliteSchedules } from "./schedules.js";
import { SqliteBackfills } from "./backfills.js";
import { SqliteSummaries } from "./summaries.js";
import { SqliteHistory } from "./history.js";
import { WalCheckpointer, type CheckpointRounds } from "./wal-checkpointer.js";

export interface SqliteStoreOptions {
  /** Told when the checkpoint thread fails (the connection then checkpoints on its own). */
  logger?: Pick<Logger, "warn">;
  checkpoints?: CheckpointRounds;
  /** The page cache, in MB (DATABASE_CACHE_MB); unset, the library's own. */
  cacheMb?: number;
}

/**
 * The embedded default: one SQLite file through better-sqlite3 (WAL, a busy timeout), which
 * several processes on one host may share. Its calls are synchronous and fast; the async
 * interface costs a resolved promise each.
 */
export class SqliteStore implements Store {
  readonly engine = "sqlite";
  readonly conversations: SqliteConversations;
  readonly turns: SqliteTurnLog;
  readonly usage: SqliteTurnLog;
  readonly queue: SqliteTurnQueue;
  readonly events: SqliteEventClaims;
  readonly threads: SqliteBotThreads;
  readonly toolSettings;
  readonly workspaceSettings;
  readonly currencyRates: SqliteCurrencyRates;
  readonly instances: SqliteInstances;
  readonly approvals: SqliteApprovals;
  readonly toolApprovals;
  readonly channelSettings;
  readonly usageReports: SqliteUsageReports;
  readonly feedback: SqliteFeedback;
  readonly departures: SqliteDepartures;
  readonly installations: SqliteInstallations;
  readonly retention: SqliteRetention;
  readonly schedules: SqliteSchedules;
  readonly backfills: SqliteBackfills;
  readonly consoleSessions: SqliteConsoleSessions;
  readonly summaries: SqliteSummaries;
  /** Budgets and what each spent (issue 25). */
  readonly budgets: SqliteBudgets;
  readonly history: SqliteHistory;
  readonly audit: SqliteAuditReads;
  private readonly pingStatement;

  /**
   * `db` is the raw connection, for the benchmark and the tests that read the file's rows;
   * `checkpointer` checkpoints its log off the main thread (none for a database in memory).
   */
  constructor(
    readonly db: Db,
    readonly checkpointer?: WalCheckpointer,
  ) {
    this.conversations = new SqliteConversations(db);
    this.turns = new SqliteTurnLog(db, this.conversations);
    this.usage = this.turns;
    this.queue = new SqliteTurnQueue(db, this.turns.startInside);
    this.events = new SqliteEventClaims(db);
    this.threads = new SqliteBotThreads(db);
    const settings = sqliteSettings(db);
    this.toolSettings = settings.tools;
    this.workspaceSettings = settings.workspaces;
    this.toolApprovals = settings.toolApprovals;
    this.channelSettings = settings.channels;
    this.approvals = new SqliteApprovals(db);
    this.usageReports = new SqliteUsageReports(db);
    this.feedback = new SqliteFeedback(db);
    this.departures = new SqliteDepartures(db, settings.version);
    this.installations = new SqliteInstallations(db);
    this.retention = new SqliteRetention(db);
    this.schedules = new SqliteSchedules(db);
    this.backfills = new SqliteBackfills(db);
    this.consoleSessions = new SqliteConsoleSessions(db);
    this.summaries = new SqliteSummaries(db, this.conversations.cache);
    this.budgets = new SqliteBudgets(db, settings.audit, settings.budgetLimits);
    this.history = new SqliteHistory(db, this.conversations);
    this.audit = new SqliteAuditReads(db);
    this.currencyRates = new SqliteCurrencyRates(db);
    this.instances = new SqliteInstances(db, this.conversations.cache);
    this.pingStatement = db.prepare("SELECT 1");
  }

  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    const db = openDatabase(path, SQLITE_MIGRATIONS, options.cacheMb);
    const inMemory = db.memory || path === "";
    const onFailure = (message: string) => options.logger?.warn({ reason: message }, "the SQLite checkpoint thread failed; checkpointing in the commits again");
    return new SqliteStore(db, inMemory ? undefined : new WalCheckpointer(db, onFailure, options.checkpoints));
  }

  async ping(): Promise<void> {
    this.pingStatement.get();
  }

  async inspect(): Promise<StoreReport> {
    const integrity = this.db.pragma("quick_check", { simple: true });
    return {
      location: this.db.name,
      schemaVersion: this.db.prepare<[], number>("SELECT MAX(version) FROM schema_migrations").pluck().get() ?? 0,
      turns: this.db.prepare<[], number>("SELECT COUNT(*) FROM turns").pluck().get() ?? 0,
      problem: integrity === "ok" ? undefined : `integrity check says: ${String(integrity)}`,
    };
  }

  async close(): Promise<void> {
    this.turns.commitWaiting();
    this.queue.leaveNow();
    await this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}
