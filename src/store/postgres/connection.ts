import pg from "pg";

/** 64-bit integers (BIGINT ids, times in ms) as numbers: every value the bot stores stays below 2^53. */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface ConnectionSettings {
  url: string;
  poolSize: number;
  /** Every wait on the server is bounded by this: a free connection, a statement, a lock. */
  timeoutMs: number;
}

function clientConfig(settings: ConnectionSettings): pg.ClientConfig {
  return {
    connectionString: settings.url,
    application_name: "agent-bot",
    types,
    connectionTimeoutMillis: settings.timeoutMs,
    statement_timeout: settings.timeoutMs,
    lock_timeout: settings.timeoutMs,
    query_timeout: settings.timeoutMs + 1_000,
    idle_in_transaction_session_timeout: settings.timeoutMs * 3,
    // A host that vanished is noticed by the operating system's keepalive, not after hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/** The pool every query goes through; a connection is held only for one statement or one short transaction, never for a turn. */
export function createPool(settings: ConnectionSettings): pg.Pool {
  return new pg.Pool({ ...clientConfig(settings), max: settings.poolSize, idleTimeoutMillis: 30_000 });
}

/** A connection of its own, outside the pool (LISTEN needs one session for as long as it listens). */
export function createClient(settings: ConnectionSettings): pg.Client {
  return new pg.Client(clientConfig(settings));
}

export type Queryable = Pick<pg.PoolClient, "query">;

/** Runs `work` in one transaction on one pooled connection; rolls back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection whose rollback fails is broken: the pool drops it instead of reusing it.
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: unknown) => (broken = rollbackError as Error));
    throw error;
  } finally {
    client.release(broken);
  }
}
