import Database from "better-sqlite3";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backupDatabase } from "../../src/ops/backup.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("an online backup of the database", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("copies a database the running bot has open, with its conversations", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("kept"));
    await t.app.runner.submit(request("back me up"), new RecordingSink());
    const target = join(t.dir, "backups/copy.sqlite");

    const { pages } = await backupDatabase(t.dbPath, target);
    expect(pages).toBeGreaterThan(0);
    const copy = new Database(target, { readonly: true });
    expect(copy.prepare("SELECT text FROM messages ORDER BY id").pluck().all()).toEqual(["back me up", "kept"]);
    copy.close();
    await expect(backupDatabase(t.dbPath, target)).rejects.toThrow(/already exists/);
  });
});
