import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backupDatabase } from "../../src/ops/backup.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("the files that hold conversations and the audit", () => {
  let t: TestApp;
  let home: string;
  const previousUmask = process.umask(0o022); // the usual default, under which they were world-readable
  afterEach(async () => {
    await t.close();
    rmSync(home, { recursive: true, force: true });
    process.umask(previousUmask);
  });

  it("are readable by the bot's user only: a new data folder 0700, the database, its WAL and shared memory 0600, backups too", async () => {
    home = mkdtempSync(join(tmpdir(), "agent-bot-modes-"));
    const dbPath = join(home, "data", "bot.sqlite");
    t = await startTestApp({ DATABASE_PATH: dbPath });
    t.model.otherwise(reply.text("a private answer"));
    await t.app.runner.submit(request("a private question"), new RecordingSink());

    expect(mode(join(home, "data"))).toBe("700");
    expect(mode(dbPath)).toBe("600");
    expect(mode(`${dbPath}-wal`)).toBe("600");
    expect(mode(`${dbPath}-shm`)).toBe("600");

    const backup = join(home, "backups", "copy.sqlite");
    await backupDatabase(dbPath, backup);
    expect(mode(join(home, "backups"))).toBe("700");
    expect(mode(backup)).toBe("600");
  });
});
