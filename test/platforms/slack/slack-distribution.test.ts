import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/env.js";
import type { SqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { reply } from "../../fakes/fake-openai.js";
import { fileAnswer } from "../../fakes/file-host.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import type { SlackCall } from "../../fakes/slack/fake-slack.js";
import { captureLogs } from "../../support/log-capture.js";
import { distributionEnv, OAUTH_CLIENT, SlackHarness } from "../../support/slack-harness.js";

/**
 * Distribution mode: "Add to Slack" for any number of workspaces in one process, the real Bolt
 * and its OAuth support against the fake Slack (oauth.v2.access, per-token auth.test).
 */
const CLIENT = OAUTH_CLIENT;

describe("Slack distribution mode", () => {
  let h: SlackHarness;
  const start = async (options: { logger?: ReturnType<typeof captureLogs>["logger"] } = {}) => {
    h = await SlackHarness.start({ env: distributionEnv(), fake: { oauthClient: CLIENT }, ...options });
    h.slack.addUser({ id: "UA", name: "ann", teamId: "TA", isAdmin: true });
    h.slack.addUser({ id: "UB", name: "bob", teamId: "TB" });
  };
  afterEach(() => h?.close());

  const rows = () => (h.app.store as SqliteStore).db.prepare("SELECT * FROM platform_installations ORDER BY install_key").all() as Record<string, unknown>[];
  /** The Web API calls made about one channel (posts, streams, reactions, statuses). */
  const callsIn = (channel: string): SlackCall[] => h.slack.calls.filter((call) => call.params.channel === channel || call.params.channel_id === channel);
  const mentionIn = (teamId: string, channel: string, user: string, text: string, extra: { enterpriseId?: string; isEnterpriseInstall?: boolean } = {}) =>
    h.deliver(appMention({ user, channel, ts: h.slack.nextTs(), text: `<@${h.slack.botUserId}> ${text}` }), { teamId, ...extra });
  const answerIn = (channel: string) =>
    h.slack.waitFor(() => h.slack.messages.find((m) => m.channel === channel && m.threadTs !== undefined && m.text !== ""), {
      what: `the answer in ${channel}`,
    });

  it("shows an Add to Slack page at /slack/install, completes the install at /slack/oauth_redirect and keeps the token encrypted", async () => {
    await start();
    const installed = await h.install({ teamId: "TA" });

    expect(installed.page).toContain("Add to Slack");
    expect(installed.page).toContain(`client_id=${CLIENT.id}`);
    expect(installed.page).toContain("scope=app_mentions%3Aread%2Cchat%3Awrite");
    expect(installed.status).toBe(200);
    expect(h.slack.installs.exchanges).toEqual(["code"]);
    const stored = rows();
    expect(stored.map((row) => row.install_key)).toEqual(["team:TA"]);
    const [token] = [...h.slack.installs.tokens.keys()];
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain("xoxb");
  });

  it("a redirect without the install page's state is refused, and nothing is installed", async () => {
    await start();
    const code = h.slack.installs.grantCode({ teamId: "TA" });
    const forged = await fetch(`${h.adapter.serverUrl}/slack/oauth_redirect?code=${code}&state=forged`);
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(h.slack.installs.exchanges).toEqual([]);
    expect(rows()).toEqual([]);
  });

  it("serves two installed workspaces side by side: each answered with its own token, a setting in one leaves the other be", async () => {
    await start();
    await h.install({ teamId: "TA" });
    await h.install({ teamId: "TB" });
    const tokenOf = (teamId: string) => [...h.slack.installs.tokens].find(([, owner]) => owner.teamId === teamId)![0];

    const prompt = await h.command("/settings", "prompt Answer in French.", "UA", "CA", { teamId: "TA" });
    expect((await h.answersAt(prompt.responseUrl))[0]).toMatch(/^Saved/);

    h.model.script(reply.text("Réponse pour A."), reply.text("Answer for B."));
    await mentionIn("TA", "CA", "UA", "hello from A");
    expect((await answerIn("CA")).text).toBe("Réponse pour A.");
    await h.idle();
    await mentionIn("TB", "CB", "UB", "hello from B");
    expect((await answerIn("CB")).text).toBe("Answer for B.");
    await h.idle();

    // Every call about a workspace's channel carried that workspace's token, and no other.
    expect(new Set(callsIn("CA").map((call) => call.token))).toEqual(new Set([tokenOf("TA")]));
    expect(new Set(callsIn("CB").map((call) => call.token))).toEqual(new Set([tokenOf("TB")]));
    // Who asked was looked up with the asker's workspace's token too.
    const lookups = h.slack.callsTo("users.info");
    expect(lookups.find((call) => call.params.user === "UA")!.token).toBe(tokenOf("TA"));
    expect(lookups.find((call) => call.params.user === "UB")!.token).toBe(tokenOf("TB"));
    // TA's prompt reached TA's turn only.
    const [forA, forB] = h.model.chatRequests.map((request) => request.body.messages[0].content as string);
    expect(forA).toMatch(/Answer in French\.$/);
    expect(forB).not.toContain("French");
  });

  it("fetches a file shared in a workspace with that workspace's token", async () => {
    await start();
    await h.install({ teamId: "TA" });
    await h.install({ teamId: "TB" });
    const tokenOf = (teamId: string) => [...h.slack.installs.tokens].find(([, owner]) => owner.teamId === teamId)![0];
    const file = h.slack.file("notes.txt", fileAnswer.text("the meeting moved to Tuesday\n"), { mimetype: "text/plain" });
    h.model.script(reply.text("Tuesday."));
    const ts = h.slack.nextTs();
    await h.deliver({ ...appMention({ user: "UB", channel: "CB", ts, text: `<@${h.slack.botUserId}> when is it?` }), files: [file] }, { teamId: "TB" });
    expect((await answerIn("CB")).text).toBe("Tuesday.");
    await h.idle();
    expect(h.model.question(0).text).toContain("the meeting moved to Tuesday");
    expect(h.slack.filesHost.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${tokenOf("TB")}`]);
  });

  it("refreshes a rotating token that expires soon, answers with the new one, and stores it (encrypted) for next time", async () => {
    await start();
    // An hour left: within the two hours Bolt refreshes ahead of expiry.
    await h.install({ teamId: "TA", tokenLifetimeSeconds: 3_600 });
    const [first] = [...h.slack.installs.tokens.keys()];
    const sealedBefore = rows()[0]!.sealed;

    h.model.script(reply.text("Fresh token."));
    await mentionIn("TA", "CA", "UA", "hello");
    expect((await answerIn("CA")).text).toBe("Fresh token.");
    await h.idle();

    expect(h.slack.installs.exchanges).toEqual(["code", "refresh"]);
    const refreshed = [...h.slack.installs.tokens.keys()].find((token) => token !== first)!;
    expect(refreshed).toMatch(/^xoxe\.xoxb-/);
    expect(new Set(callsIn("CA").map((call) => call.token))).toEqual(new Set([refreshed]));
    const after = rows()[0]!;
    expect(after.sealed).not.toBe(sealedBefore);
    expect(JSON.stringify(after)).not.toContain(refreshed);
    expect(Number(after.expires_at)).toBeGreaterThan(Date.now());
  });

  it("app_uninstalled deletes the workspace's installation: its later events are not answered; the other workspace goes on", async () => {
    await start();
    await h.install({ teamId: "TA" });
    await h.install({ teamId: "TB" });
    h.slack.installs.revoke({ teamId: "TA" });
    await h.deliver({ type: "app_uninstalled", event_ts: h.slack.nextTs() }, { teamId: "TA" });
    await h.slack.waitFor(() => rows().length === 1, { what: "the installation deleted" });
    expect(rows().map((row) => row.install_key)).toEqual(["team:TB"]);

    h.model.script(reply.text("Only B."));
    await mentionIn("TA", "CA", "UA", "still there?");
    await mentionIn("TB", "CB", "UB", "hello");
    expect((await answerIn("CB")).text).toBe("Only B.");
    await h.idle();
    expect(h.model.chatRequests).toHaveLength(1);
    expect(callsIn("CA")).toEqual([]);
  });

  it("writes no token, refresh token or SECRETS_KEY to the log, even at debug level", async () => {
    const logs = captureLogs("debug");
    await start({ logger: logs.logger });
    await h.install({ teamId: "TA", tokenLifetimeSeconds: 3_600 });
    h.model.script(reply.text("Logged quietly."));
    await mentionIn("TA", "CA", "UA", "hello");
    await answerIn("CA");
    await h.idle();
    expect(h.slack.installs.exchanges).toEqual(["code", "refresh"]);
    const text = logs.text();
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/xox[be]/);
    expect(text).not.toContain(h.app.config.SECRETS_KEY!);
  });

  it("tokens_revoked for the bot deletes the installation too", async () => {
    await start();
    await h.install({ teamId: "TA" });
    await h.deliver({ type: "tokens_revoked", tokens: { bot: ["UBOT"] }, event_ts: h.slack.nextTs() }, { teamId: "TA" });
    await h.slack.waitFor(() => rows().length === 0, { what: "the installation deleted" });
  });

  it("an Enterprise Grid org-wide install is kept under the organisation and answers in any workspace of it", async () => {
    await start();
    await h.install({ enterpriseId: "E1", isEnterpriseInstall: true });
    expect(rows().map((row) => row.install_key)).toEqual(["enterprise:E1"]);
    h.model.script(reply.text("Org-wide."));
    await mentionIn("T9", "C9", "UA", "hello", { enterpriseId: "E1", isEnterpriseInstall: true });
    expect((await answerIn("C9")).text).toBe("Org-wide.");
    const [orgToken] = [...h.slack.installs.tokens.keys()];
    expect(new Set(callsIn("C9").map((call) => call.token))).toEqual(new Set([orgToken]));
  });

  it("a signed event from a workspace that never installed the app gets no answer", async () => {
    await start();
    const response = await h.sender.event(eventCallback(appMention({ user: "UA", channel: "CX", ts: h.slack.nextTs(), text: "hi" }), { teamId: "TX" }));
    expect(response.status).toBe(200);
    await h.idle();
    expect(h.model.chatRequests).toHaveLength(0);
  });
});

describe("Slack distribution mode's configuration", () => {
  it("refuses to start without SECRETS_KEY, or with only some of the OAuth variables, saying which", () => {
    const { SECRETS_KEY: _key, ...withoutKey } = distributionEnv();
    expect(() => loadConfig({ ...withoutKey, SLACK_SIGNING_SECRET: "s" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...withoutKey, SLACK_SIGNING_SECRET: "s" })).toThrow(/SECRETS_KEY must be set in distribution mode/);
    expect(() => loadConfig({ ...distributionEnv(), SLACK_CLIENT_SECRET: "", SLACK_SIGNING_SECRET: "s" })).toThrow(/SLACK_CLIENT_SECRET must be set too/);
    expect(() => loadConfig({ ...distributionEnv(), SECRETS_KEY: "hunter2", SLACK_SIGNING_SECRET: "s" })).toThrow(/SECRETS_KEY must be 32 random bytes/);
    expect(() => loadConfig({ ...distributionEnv(), SLACK_BOT_TOKEN: "xoxb-one", SLACK_SIGNING_SECRET: "s" })).toThrow(
      /SLACK_BOT_TOKEN must be unset in distribution mode/,
    );
    expect(() => loadConfig({ ...distributionEnv(), SLACK_APP_TOKEN: "xapp-1" })).toThrow(/SLACK_SIGNING_SECRET must be set in distribution mode/);
    expect(loadConfig({ ...distributionEnv(), SLACK_SIGNING_SECRET: "s" }).SLACK_CLIENT_ID).toBe(CLIENT.id);
  });
});
