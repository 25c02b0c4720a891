import type { Db } from "./database.js";

const KEEP_EVENTS_MS = 7 * 24 * 60 * 60 * 1000;

/** Remembers platform event ids so a redelivered event (also after a restart) starts no second turn. */
export class EventStore {
  private readonly insert;
  private readonly prune;
  private inserted = 0;

  constructor(db: Db) {
    this.insert = db.prepare<[string, string, number]>(
      `INSERT OR IGNORE INTO processed_events (platform, event_id, received_at) VALUES (?, ?, ?)`,
    );
    this.prune = db.prepare<[number]>(`DELETE FROM processed_events WHERE received_at < ?`);
  }

  /** True the first time an event id is seen, false for every redelivery. */
  firstDelivery(platform: string, eventId: string): boolean {
    const now = Date.now();
    const fresh = this.insert.run(platform, eventId, now).changes === 1;
    if (fresh && ++this.inserted % 1000 === 0) this.prune.run(now - KEEP_EVENTS_MS);
    return fresh;
  }
}
