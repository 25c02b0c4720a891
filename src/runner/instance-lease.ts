import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "../log.js";
import type { InstanceRun, Store } from "../store/store.js";

/**
 * This process's lease in the database it shares with other bot processes. It is renewed every
 * third of `leaseMs`; each renewal also reaps runs that stopped without leaving: a lease older
 * than `leaseMs` (by the database's clock), or a process on this host that no longer exists. Their
 * running turns are marked interrupted and their places in line released, by whichever process
 * notices first, so the survivors' turns in those conversations go on.
 */
export class InstanceLease {
  readonly run: InstanceRun;
  private timer?: NodeJS.Timeout;
  private renewing?: Promise<void>;

  constructor(
    private readonly store: Store,
    name: string,
    private readonly leaseMs: number,
    private readonly logger: Logger,
    /** Runs after each renewal (restart notices); never rejects. */
    private readonly afterRenewal: () => Promise<void> = async () => {},
  ) {
    this.run = { id: `${name}:${randomBytes(4).toString("hex")}`, name, host: hostname(), pid: process.pid };
  }

  /** Registers, reaps what earlier processes left running (a restart after a crash), and starts renewing. */
  async start(): Promise<void> {
    await this.store.instances.register(this.run);
    await this.renewAndReap();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** A clean stop: the record goes, turns that did not stop are marked interrupted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
    await this.store.instances.leave(this.run);
  }

  private tick(): Promise<void> {
    this.renewing ??= this.renewAndReap()
      .catch((error: unknown) => this.logger.warn({ err: error }, "could not renew this process's lease"))
      .then(this.afterRenewal)
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async renewAndReap(): Promise<void> {
    if (!(await this.store.instances.renew(this.run))) {
      this.logger.warn({ instance: this.run.id }, "this process's lease had run out: other processes may have marked its running turns interrupted");
    }
    const dead = (await this.store.instances.othersOnHost(this.run)).filter((other) => !processExists(other.pid)).map((other) => other.id);
    const reaped = await this.store.instances.reap({ leaseMs: this.leaseMs, dead });
    if (reaped.turns > 0)
      this.logger.warn({ turns: reaped.turns, processes: reaped.runs }, "marked turns left running by stopped bot processes as interrupted");
  }
}

/** Whether a process with this id runs on this host (EPERM: it does, as another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
