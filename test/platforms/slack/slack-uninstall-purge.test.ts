import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { appMention } from "../../fakes/slack/payloads.js";
import { distributionEnv, OAUTH_CLIENT, SlackHarness } from "../../support/slack-harness.js";
import { dbOf } from "../../support/test-app.js";

/**
 * UNINSTALL_PURGE_DAYS with the real Bolt in distribution mode: app_uninstalled / tokens_revoked
 * stop the workspace's schedules at once; its data goes after the delay (the sweep run with a
 * clock that many days on), at once with 0; a reinstall within the delay keeps it.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

describe("Slack: a workspace's data after an uninstall", () => {
  let h: SlackHarness;
  afterEach(() => h?.close());

  const start = async (env: Record<string, string> = {}) => {
    h = await SlackHarness.start({ env: { ...distributionEnv(), ...env }, fake: { oauthClient: OAUTH_CLIENT } });
    h.slack.addUser({ id: "UA", name: "ann", teamId: "TA", isAdmin: true });
    h.slack.addUser({ id: "UB", name: "bob", teamId: "TB" });
    await h.install({ teamId: "TA" });
    await h.install({ teamId: "TB" });
  };
  const count = (sql: string, workspace: string) => (dbOf(h.app).prepare(sql).pluck().get(workspace) as number) ?? 0;
  const conversationsOf = (workspace: string) => count("SELECT COUNT(*) FROM conversations WHERE workspace_id = ?", workspace);
  const settingsOf = (workspace: string) => count("SELECT COUNT(*) FROM workspace_settings WHERE workspace_id = ?", workspace);

  /** An answered question in each workspace, a setting in TA, and a daily task there. */
  async function use(): Promise<void> {
    h.model.script(reply.text("For A."), reply.text("For B."));
    for (const [team, channel, user] of [
      ["TA", "CA", "UA"],
      ["TB", "CB", "UB"],
    ] as const) {
      await h.deliver(appMention({ user, channel, ts: h.slack.nextTs(), text: `<@${h.slack.botUserId}> hello` }), { teamId: team });
      await h.slack.waitFor(() => h.slack.messages.find((m) => m.channel === channel && m.text.startsWith("For")), { what: `the answer in ${channel}` });
      await h.idle();
    }
    const prompt = await h.command("/settings", "prompt Answer in French.", "UA", "CA", { teamId: "TA" });
    expect((await h.answersAt(prompt.responseUrl))[0]).toMatch(/^Saved/);
    await h.app.store.schedules.create({
      id: "task-a",
      platform: "slack",
      workspaceId: "TA",
      channelId: "CA",
      creator: "UA",
      whenText: "every day at 9",
      cron: "0 9 * * *",
      timeZone: "UTC",
      task: "Post the news",
      nextDue: Date.now() - 1_000,
      createdAt: Date.now(),
    });
  }
  const dueIn = async (workspace: string) => (await h.app.store.schedules.due(Date.now(), 100)).filter((task) => task.workspaceId === workspace);

  it("stops the schedules at once, keeps the data for UNINSTALL_PURGE_DAYS (30), and purges it after; the other workspace keeps everything", async () => {
    await start();
    await use();
    expect(await dueIn("TA")).toHaveLength(1);

    h.slack.installs.revoke({ teamId: "TA" });
    await h.deliver({ type: "app_uninstalled", event_ts: h.slack.nextTs() }, { teamId: "TA" });
    await h.slack.waitFor(() => count("SELECT COUNT(*) FROM workspace_departures WHERE workspace_id = ?", "TA") === 1, { what: "the departure" });
    expect(await dueIn("TA")).toEqual([]);

    const [conversations, others] = [conversationsOf("TA"), conversationsOf("TB")];
    expect(conversations).toBeGreaterThan(0);
    const now = Date.now();
    await h.app.purge.sweep(now + 29 * DAY_MS);
    expect(conversationsOf("TA")).toBe(conversations);
    expect(settingsOf("TA")).toBe(1);

    await h.app.purge.sweep(now + 30 * DAY_MS + 1_000);
    expect(conversationsOf("TA")).toBe(0);
    expect(settingsOf("TA")).toBe(0);
    expect(count("SELECT COUNT(*) FROM scheduled_tasks WHERE workspace_id = ?", "TA")).toBe(0);
    expect(conversationsOf("TB")).toBe(others);
  });

  it("keeps everything of a workspace that reinstalls within the delay, and runs its schedules again", async () => {
    await start();
    await use();
    const conversations = conversationsOf("TA");
    await h.deliver({ type: "tokens_revoked", tokens: { bot: ["UBOT"] }, event_ts: h.slack.nextTs() }, { teamId: "TA" });
    await h.slack.waitFor(() => count("SELECT COUNT(*) FROM workspace_departures WHERE workspace_id = ?", "TA") === 1, { what: "the departure" });
    await h.install({ teamId: "TA" });
    expect(count("SELECT COUNT(*) FROM workspace_departures WHERE workspace_id = ?", "TA")).toBe(0);

    await h.app.purge.sweep(Date.now() + 60 * DAY_MS);
    expect(conversationsOf("TA")).toBe(conversations);
    expect(settingsOf("TA")).toBe(1);
    expect(await dueIn("TA")).toHaveLength(1);
  });

  it("purges at once with UNINSTALL_PURGE_DAYS=0", async () => {
    await start({ UNINSTALL_PURGE_DAYS: "0" });
    await use();
    const others = conversationsOf("TB");
    await h.deliver({ type: "app_uninstalled", event_ts: h.slack.nextTs() }, { teamId: "TA" });
    await h.slack.waitFor(() => conversationsOf("TA") === 0 && settingsOf("TA") === 0, { what: "the purge" });
    expect(conversationsOf("TB")).toBe(others);
  });
});
