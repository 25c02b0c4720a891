import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * The PostgreSQL server the tests use: this machine's and CI's (127.0.0.1:5432, trust
 * authentication). TEST_POSTGRES_URL points elsewhere. Each test file makes databases of its own,
 * named with a random suffix, and drops them at the end.
 */
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** Set by .ci/run: there a missing server fails the run instead of skipping the PostgreSQL half. */
const REQUIRED = process.env.REQUIRE_POSTGRES === "1";

export type PostgresAvailability = { available: true } | { available: false; reason: string };

let probed: Promise<PostgresAvailability> | undefined;

/**
 * Whether the server answers. When it does not, the PostgreSQL tests are reported as skipped with
 * this reason (never passed); under REQUIRE_POSTGRES=1 this throws, failing the file.
 */
export function postgresAvailability(): Promise<PostgresAvailability> {
  probed ??= (async (): Promise<PostgresAvailability> => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return { available: true };
    } catch (error) {
      const reason = `no PostgreSQL answers at ${new URL(ADMIN_URL).host} (${(error as Error).message})`;
      if (REQUIRED) throw new Error(`REQUIRE_POSTGRES=1 but ${reason}`);
      return { available: false, reason };
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return probed;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server; `drop()` removes it, whoever is still connected. */
export async function createTestDatabase(prefix = "agent_bot_test"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs one query on a database of the test server (for reading rows in assertions). */
export async function queryRows<T extends pg.QueryResultRow = Record<string, any>>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, types: { getTypeParser: numericInt8 } });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** BIGINT columns as numbers, as the store reads them, so rows compare alike on both engines. */
const numericInt8 = ((oid: number, format?: "text" | "binary") =>
  oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;
