import { mkdtempSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SQLITE_MIGRATIONS, openDatabase } from "../../src/store/sqlite/database.js";

describe("SQLite schema migrations", () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-migrations-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("are applied once, in order, and not again after a restart", () => {
    const migrations = join(dir, "migrations");
    cpSync(SQLITE_MIGRATIONS, migrations, { recursive: true });
    const path = join(dir, "bot.sqlite");

    const first = openDatabase(path, migrations);
    const applied = first.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all();
    expect(applied.length).toBeGreaterThan(0);
    expect(first.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(first.pragma("foreign_keys", { simple: true })).toBe(1);
    first.close();

    // a new migration arrives with an upgrade; the old ones must not run twice (they would fail)
    writeFileSync(join(migrations, "999_add_note.sql"), "ALTER TABLE conversations ADD COLUMN note TEXT;");
    const second = openDatabase(path, migrations);
    expect(second.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all()).toEqual([...applied, 999]);
    second.close();

    const third = openDatabase(path, migrations);
    expect(third.prepare("SELECT COUNT(*) FROM schema_migrations").pluck().get()).toBe(applied.length + 1);
    third.close();
  });

  it("leave the database as it was when a migration fails", () => {
    const migrations = join(dir, "broken");
    cpSync(SQLITE_MIGRATIONS, migrations, { recursive: true });
    writeFileSync(join(migrations, "998_broken.sql"), "CREATE TABLE half (x INTEGER); THIS IS NOT SQL;");
    const path = join(dir, "broken.sqlite");
    expect(() => openDatabase(path, migrations)).toThrow();
    rmSync(join(migrations, "998_broken.sql"));
    const db = openDatabase(path, migrations);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    db.close();
  });
});
