import type { WorkspaceRef } from "./types.js";

const MAX_CACHED_WORKSPACES = 10_000;

/** The cache key of a workspace, also the payload PostgreSQL's change notifications carry. */
export const workspaceKey = (workspace: WorkspaceRef): string => JSON.stringify([workspace.platform, workspace.workspaceId]);

/**
 * Settings are read on every turn and changed rarely, so they are cached per workspace (and, for
 * per-channel settings, per channel of it). Another process sharing the database may change
 * them, so each store invalidates: SQLite checks a version row before every cached read,
 * PostgreSQL drops a workspace's entries when a change is notified (LISTEN) and caches nothing
 * while it cannot listen.
 */
export class SettingsCache<V> {
  private readonly entries = new Map<string, Map<string, V>>();
  /** Counts invalidations: a value read while one happened may predate the change, so it is not kept. */
  private generation = 0;
  private enabled = true;

  /** The cached value for the workspace (and `part` of it, e.g. a channel), else what `load` reads. */
  async get(workspace: WorkspaceRef, load: () => Promise<V> | V, part = ""): Promise<V> {
    const key = workspaceKey(workspace);
    const hit = this.entries.get(key)?.get(part);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (this.enabled && generation === this.generation) {
      if (this.entries.size >= MAX_CACHED_WORKSPACES) this.entries.clear();
      const parts = this.entries.get(key) ?? new Map<string, V>();
      parts.set(part, value);
      this.entries.set(key, parts);
    }
    return value;
  }

  /** Drops what is cached of one workspace (by its key, as notified). */
  drop(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Off: every read goes to the database (PostgreSQL while its change notifications are not received). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.clear();
  }
}
