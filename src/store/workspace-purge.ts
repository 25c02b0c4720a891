import type { Logger } from "../log.js";
import { BETWEEN_ROUNDS_MS, DAY_MS, FIRST_SWEEP_MS, SWEEP_EVERY_MS } from "./pruner.js";
import type { WorkspaceRef } from "./types.js";
import type { DepartureStore } from "./departure-store.js";

/** Rows per round (one short transaction), and rounds per workspace per sweep at most (the rest waits for the next). */
const ROUND_LIMIT = 1_000;
const MAX_ROUNDS = 1_000;
/** Departed workspaces purged per sweep. */
const WORKSPACES_PER_SWEEP = 20;

export interface WorkspacePurgeOptions {
  /** UNINSTALL_PURGE_DAYS: how long a departed workspace's data is kept for a reinstall (0: purged at once). */
  purgeDays: number;
  logger: Logger;
  now?: () => number;
}

/**
 * The app leaving a workspace and coming back (Slack's uninstall and reinstall): a departure is
 * recorded at once (its schedules stop with it, see RUNNABLE), and a background sweep, a minute
 * after start and then hourly, purges the data of workspaces that left UNINSTALL_PURGE_DAYS ago
 * or more, in bounded rounds with pauses between them. A return before then keeps everything.
 * Never throws into its callers: failures are logged and the next sweep tries again.
 */
export class WorkspacePurge {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<unknown>;
  private again = false;
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly departures: DepartureStore,
    private readonly options: WorkspacePurgeOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.schedule(FIRST_SWEEP_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }

  /** The app was uninstalled from the workspace; with UNINSTALL_PURGE_DAYS=0 its data goes now, in the background. */
  async left(platform: string, workspaceId: string, reason: string): Promise<void> {
    await this.departures.left({ platform, workspaceId, reason, leftAt: this.now() });
    this.options.logger.info(
      { platform, workspaceId, reason, purgeDays: this.options.purgeDays },
      "the app left a workspace: its schedules stop, and its data is purged after UNINSTALL_PURGE_DAYS unless it is reinstalled",
    );
    if (this.options.purgeDays === 0) this.sweepSoon();
  }

  /** The app was installed in the workspace again: whatever was waiting to be purged stays. */
  async returned(platform: string, workspaceId: string): Promise<void> {
    if (await this.departures.returned({ platform, workspaceId }))
      this.options.logger.info({ platform, workspaceId }, "the app was reinstalled in a workspace before its purge; its data stays");
  }

  /** Purges every workspace whose departure is old enough; returns the rows deleted per workspace purged. */
  async sweep(now = this.now()): Promise<Map<string, number>> {
    const purged = new Map<string, number>();
    const cutoff = now - this.options.purgeDays * DAY_MS;
    for (const departure of await this.departures.due(cutoff, WORKSPACES_PER_SWEEP)) {
      if (this.stopped) break;
      const rows = await this.purge(departure, cutoff);
      purged.set(`${departure.platform}:${departure.workspaceId}`, rows);
    }
    return purged;
  }

  /** Rounds until nothing of the workspace is left (or its departure was taken back, or the round cap). */
  private async purge(workspace: WorkspaceRef, cutoff: number): Promise<number> {
    let total = 0;
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const rows = await this.departures.purgeRound(workspace, cutoff, ROUND_LIMIT);
      if (rows === 0) {
        this.options.logger.info({ platform: workspace.platform, workspaceId: workspace.workspaceId, rows: total }, "purged a departed workspace's data");
        return total;
      }
      total += rows;
      await new Promise((resolve) => setTimeout(resolve, BETWEEN_ROUNDS_MS));
    }
    return total;
  }

  /** A sweep now, after the one under way if any (never two at once). */
  private sweepSoon(): void {
    if (this.stopped) return;
    if (this.sweeping) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.run();
  }

  private run(): void {
    this.sweeping = this.sweep()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, "could not purge departed workspaces' data; trying again later"))
      .finally(() => {
        this.sweeping = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.run();
        } else this.schedule(SWEEP_EVERY_MS);
      });
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
    this.timer.unref();
  }

  /** Resolves once no sweep is under way (tests). */
  async idle(): Promise<void> {
    while (this.sweeping) await this.sweeping;
  }
}
