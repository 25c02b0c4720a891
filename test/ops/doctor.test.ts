import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatVerdicts, runDoctor } from "../../src/ops/doctor.js";
import { readMigrations } from "../../src/store/migration-files.js";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres/postgres-store.js";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import { FakeSlack } from "../fakes/slack/fake-slack.js";
import { useModelAndFolder } from "../support/model-and-folder.js";
import { createTestDatabase, postgresAvailability } from "../support/postgres.js";

const availability = await postgresAvailability();

describe("npm run doctor", () => {
  const scratch = useModelAndFolder("agent-bot-doctor-");

  it("passes every check when the configuration, database and model are fine", async () => {
    const verdicts = await runDoctor({
      OPENAI_BASE_URL: scratch.model.url,
      OPENAI_MODEL: "fake-model",
      DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
      TOOLS_DIR: "none",
    });
    expect(verdicts.map((v) => [v.item, v.status])).toEqual([
      ["configuration", "pass"],
      ["database", "pass"],
      ["model", "pass"],
      ["tools folder", "pass"],
    ]);
    expect(verdicts[2]!.detail).toBe(`${scratch.model.url} answers with 1 model(s); fake-model is available`);
    expect(formatVerdicts(verdicts)).toMatch(/All checks passed\.$/);
  });

  it("says which item fails and why", async () => {
    const verdicts = await runDoctor({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DATABASE_PATH: join(scratch.dir, "bot.sqlite") });
    const modelVerdict = verdicts.find((v) => v.item === "model")!;
    expect(modelVerdict.status).toBe("fail");
    expect(modelVerdict.detail).toMatch(/^http:\/\/127\.0\.0\.1:9\/v1 did not answer: /);
    expect(formatVerdicts(verdicts)).toContain("✘ model: ");
    expect(formatVerdicts(verdicts)).toMatch(/1 check\(s\) failed\.$/);
  });

  it("stops at a broken configuration with the variable's name", async () => {
    const verdicts = await runDoctor({ AGENT_PROTOCOL: "telepathy" });
    expect(verdicts).toEqual([{ item: "configuration", status: "fail", detail: 'AGENT_PROTOCOL must be tools or react (got "telepathy")' }]);
  });

  it("checks each configured platform's token with the platform itself", async () => {
    const discord = await FakeDiscord.start();
    const slack = await FakeSlack.start();
    try {
      const env = {
        OPENAI_BASE_URL: scratch.model.url,
        OPENAI_MODEL: "fake-model",
        DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.apiUrl,
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_API_URL: slack.apiUrl,
      };
      const good = await runDoctor(env);
      expect(good.find((v) => v.item === "discord token")).toMatchObject({ status: "pass", detail: expect.stringMatching(/^the token belongs to /) });
      expect(good.find((v) => v.item === "slack token")).toEqual({ item: "slack token", status: "pass", detail: "the token belongs to bot in Fake" });

      const bad = await runDoctor({ ...env, DISCORD_TOKEN: "wrong-token", SLACK_BOT_TOKEN: "xoxb-wrong" });
      expect(bad.find((v) => v.item === "discord token")?.status).toBe("fail");
      expect(bad.find((v) => v.item === "slack token")).toMatchObject({ status: "fail", detail: expect.stringMatching(/invalid_auth/) });
      expect(formatVerdicts(bad)).not.toMatch(/wrong-token|xoxb-wrong/);
    } finally {
      await discord.close();
      await slack.close();
    }
  });

  it("checks Slack's client id and secret in distribution mode, where there is no token of its own", async () => {
    const slack = await FakeSlack.start({ oauthClient: { id: "cid", secret: "csecret" } });
    try {
      const env = {
        OPENAI_BASE_URL: scratch.model.url,
        OPENAI_MODEL: "fake-model",
        DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
        SLACK_API_URL: slack.apiUrl,
        SLACK_SIGNING_SECRET: "signing",
        SLACK_CLIENT_ID: "cid",
        SLACK_CLIENT_SECRET: "csecret",
        SLACK_STATE_SECRET: "state",
        SECRETS_KEY: "a".repeat(64),
      };
      const good = await runDoctor(env);
      expect(good.find((v) => v.item === "slack token")).toEqual({
        item: "slack token",
        status: "pass",
        detail: "distribution mode: Slack accepts SLACK_CLIENT_ID and SLACK_CLIENT_SECRET",
      });
      const bad = await runDoctor({ ...env, SLACK_CLIENT_SECRET: "wrong-secret" });
      expect(bad.find((v) => v.item === "slack token")).toMatchObject({ status: "fail", detail: expect.stringMatching(/invalid_client_id/) });
      expect(formatVerdicts(bad)).not.toMatch(/wrong-secret/);
    } finally {
      await slack.close();
    }
  });

  it("names an unreachable PostgreSQL server without its password", async () => {
    const verdicts = await runDoctor({
      OPENAI_BASE_URL: scratch.model.url,
      DATABASE_URL: "postgres://bot:hunter2-secret@127.0.0.1:9/bot",
      DATABASE_TIMEOUT_MS: "2000",
    });
    const database = verdicts.find((v) => v.item === "database")!;
    expect(database.status).toBe("fail");
    expect(database.detail).toMatch(/^cannot open postgres:\/\/bot:\*\*\*@127\.0\.0\.1:9\/bot: /);
    expect(formatVerdicts(verdicts)).not.toContain("hunter2-secret");
  });

  it.skipIf(!availability.available)(
    availability.available
      ? "checks the PostgreSQL database: reachable, migrated, turns recorded"
      : `checks the PostgreSQL database (not run: ${availability.available ? "" : availability.reason})`,
    async () => {
      const database = await createTestDatabase("agent_bot_doctor");
      try {
        const url = new URL(database.url);
        url.password = "hunter2-secret";
        const verdicts = await runDoctor({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MODEL: "fake-model", DATABASE_URL: url.toString() });
        expect(verdicts.find((v) => v.item === "database")).toEqual({
          item: "database",
          status: "pass",
          detail: expect.stringMatching(
            new RegExp(
              `^postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:5432/agent_bot_doctor_\\w+ at schema version ${readMigrations(POSTGRES_MIGRATIONS).at(-1)!.version}, 0 turns recorded$`,
            ),
          ),
        });
        expect(formatVerdicts(verdicts)).not.toContain("hunter2-secret");
      } finally {
        await database.drop();
      }
    },
  );
});
