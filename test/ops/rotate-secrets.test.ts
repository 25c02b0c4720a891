import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { SealedInstallations } from "../../src/store/sealed-installations.js";
import { SecretBox } from "../../src/store/secrets.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";

const run = promisify(execFile);
const CLI = resolve(PROJECT_ROOT, "src/ops/rotate-secrets-cli.ts");

describe("npm run rotate-secrets", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("re-encrypts the tokens sealed with SECRETS_KEY_PREVIOUS with SECRETS_KEY, after which the old key is no longer needed", async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-rotate-"));
    const path = join(dir, "bot.sqlite");
    const oldKey = randomBytes(32).toString("base64");
    const newKey = randomBytes(32).toString("hex");
    const store = SqliteStore.open(path);
    await new SealedInstallations(store.installations, new SecretBox(oldKey)).save("slack", "team:T1", { teamId: "T1", data: '{"bot":{"token":"xoxb-1"}}' });
    await store.close();

    const env = { PATH: process.env.PATH ?? "", DATABASE_PATH: path, SECRETS_KEY: newKey, SECRETS_KEY_PREVIOUS: oldKey };
    const { stdout } = await run(process.execPath, ["--import", TSX_LOADER, CLI], { cwd: dir, env });
    expect(stdout).toContain("Re-encrypted 1 installation(s) with SECRETS_KEY; 0 already were.");

    const reopened = SqliteStore.open(path);
    try {
      expect(await new SealedInstallations(reopened.installations, new SecretBox(newKey)).find("slack", "team:T1")).toBe('{"bot":{"token":"xoxb-1"}}');
    } finally {
      await reopened.close();
    }
  });

  it("says clearly that it needs SECRETS_KEY, and exits 1", async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-rotate-"));
    const env = { PATH: process.env.PATH ?? "", DATABASE_PATH: join(dir, "bot.sqlite") };
    const failure = await run(process.execPath, ["--import", TSX_LOADER, CLI], { cwd: dir, env }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain("SECRETS_KEY is not set");
  });
});
