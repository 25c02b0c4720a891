/** A console session as the store keeps it, found by the hash of the cookie's secret. */
export interface StoredSession {
  /** Who signed in, as JSON (the console's Viewer). */
  viewerJson: string;
  expiresAt: number;
}

/**
 * The console's sessions, shared by every process on the database (docs/console.md): a sign-in
 * made through one process is good in all, a sign-out ends it in all. Only a hash of each
 * session's secret is kept; the console hashes it.
 */
export interface ConsoleSessionStore {
  /** Keeps a new session, and deletes some of those that expired by `now`. */
  create(idHash: string, viewerJson: string, now: number, expiresAt: number): Promise<void>;
  /** The session, while it has not expired by `now`. */
  get(idHash: string, now: number): Promise<StoredSession | undefined>;
  end(idHash: string): Promise<void>;
}

/** Expired sessions deleted with each new one: sign-ins are few, so this keeps the table small. */
export const EXPIRED_DELETED_PER_SIGN_IN = 100;
