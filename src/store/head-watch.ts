/**
 * Watches the place first in line while a turn waits behind it. A live process holds a place
 * only while its turn runs and its answer is posted, so the same place first for longer than any
 * turn may take was lost (its release failed, say, while the database was unreachable): it is
 * dropped. Observed with this process's own clock, so no clocks of other hosts are compared.
 */
export class HeadWatch {
  private id?: number;
  private since = 0;

  constructor(private readonly staleAfterMs: number) {}

  abandoned(headId: number, now = Date.now()): boolean {
    if (headId !== this.id) {
      this.id = headId;
      this.since = now;
      return false;
    }
    return now - this.since > this.staleAfterMs;
  }
}
