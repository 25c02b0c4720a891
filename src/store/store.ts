import { ApprovalRepository } from "./approval-repository.js";
import { ChannelSettingsRepository } from "./channel-settings-repository.js";
import { openDatabase, type Db } from "./database.js";
import { CurrencyRateStore } from "./currency-rate-store.js";
import { EventStore } from "./event-store.js";
import { MemoryStore } from "./memory-store.js";
import { ThreadStore } from "./thread-store.js";
import { ToolApprovalRepository } from "./tool-approval-repository.js";
import { ToolSettingsStore } from "./tool-settings-store.js";
import { TurnStore } from "./turn-store.js";
import { UsageReportRepository } from "./usage-report-repository.js";
import { UsageStore } from "./usage-store.js";
import { WorkspaceSettingsStore } from "./workspace-settings-store.js";

/** Everything the bot keeps, over one SQLite connection. */
export class Store {
  readonly memory: MemoryStore;
  readonly turns: TurnStore;
  readonly toolSettings: ToolSettingsStore;
  readonly threads: ThreadStore;
  readonly events: EventStore;
  readonly currencyRates: CurrencyRateStore;
  readonly workspaceSettings: WorkspaceSettingsStore;
  readonly usage: UsageStore;
  readonly approvals: ApprovalRepository;
  readonly toolApprovals: ToolApprovalRepository;
  readonly channelSettings: ChannelSettingsRepository;
  readonly usageReports: UsageReportRepository;

  constructor(readonly db: Db) {
    this.memory = new MemoryStore(db);
    this.turns = new TurnStore(db);
    this.toolSettings = new ToolSettingsStore(db);
    this.threads = new ThreadStore(db);
    this.events = new EventStore(db);
    this.currencyRates = new CurrencyRateStore(db);
    this.workspaceSettings = new WorkspaceSettingsStore(db);
    this.usage = new UsageStore(db);
    this.approvals = new ApprovalRepository(db);
    this.toolApprovals = new ToolApprovalRepository(db);
    this.channelSettings = new ChannelSettingsRepository(db);
    this.usageReports = new UsageReportRepository(db);
  }

  static open(path: string): Store {
    return new Store(openDatabase(path));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
