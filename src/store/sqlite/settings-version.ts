import type { Statement } from "better-sqlite3";
import type { SettingsCache } from "../settings-cache.js";
import type { Db } from "./database.js";

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
    this.select = db.prepare<[], number>(`SELECT version FROM settings_version WHERE id = 1`).pluck();
    this.increment = db.prepare(`UPDATE settings_version SET version = version + 1 WHERE id = 1`);
  }

  /** Drops the caches when another process changed a setting since the last look. */
  check(): void {
    if (this.looked) return;
    this.looked = true;
    setImmediate(this.lookAgain);
    const version = this.select.get() ?? 0;
    if (version === this.seen) return;
    this.seen = version;
    for (const cache of this.caches) cache.clear();
  }

  /** Inside the transaction of a change; the check that follows it looks again. */
  bump(): void {
    this.increment.run();
    this.looked = false;
  }
}
