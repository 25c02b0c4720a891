import type { Statement } from "better-sqlite3";
import type { SettingsCache } from "../settings-cache.js";
import type { Db } from "./database.js";
import { DataVersion } from "./data-version.js";

/** The settings audit's insert: platform, workspace, key, value (JSON), who, when. */
export type Audit = Statement<[string, string, string, string, string, number]>;

/**
 * The version row every settings change bumps: before a cached read, a process that sees a new
 * version drops its caches, so a change made by another process sharing the file applies at once.
 */
export class SettingsVersion {
  private readonly select;
  private readonly increment;
  private seen = -1;
  /** data_version when the row was last read (DataVersion). */
  private seenData: number | undefined;
  private readonly dataVersion: DataVersion;
  /**
   * Set by the first look in a pass of the event loop: the several settings one turn reads in a
   * row (workspace, channel, tools, approvals) share that look. Another process's change shows
   * from the next pass, as it would have had it committed a moment later.
   */
  private looked = false;
  private readonly lookAgain = () => {
    this.looked = false;
  };

  constructor(
    db: Db,
    private readonly caches: SettingsCache<unknown>[],
  ) {
    this.dataVersion = DataVersion.of(db);
    this.select = db.prepare<[], number>(`SELECT version FROM settings_version WHERE id = 1`).pluck();
    this.increment = db.prepare(`UPDATE settings_version SET version = version + 1 WHERE id = 1`);
  }

  /** Drops the caches when another process changed a setting since the last look. */
  check(): void {
    if (this.looked) return;
    this.looked = true;
    setImmediate(this.lookAgain);
    // No other connection committed anything since the last look: no setting changed either.
    const data = this.dataVersion.current();
    if (data === this.seenData) return;
    const version = this.select.get() ?? 0;
    this.seenData = data;
    if (version === this.seen) return;
    this.seen = version;
    for (const cache of this.caches) cache.clear();
  }

  /** Inside the transaction of a change; the check that follows it looks again. */
  bump(): void {
    this.increment.run();
    this.looked = false;
    // This connection's own commit does not move data_version: the row is read again.
    this.seenData = undefined;
  }
}
