import { randomBytes } from "node:crypto";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "../../src/console/console-server.js";
import { startConsoleFor } from "../../src/start-console.js";
import { FakeOAuth, OAUTH_CLIENT } from "../fakes/fake-oauth.js";
import { freePort } from "../support/free-port.js";
import { SlackHarness } from "../support/slack-harness.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./console-harness.js";

/**
 * Sign in with Slack (OpenID Connect) against a fake of the tests' own, with the real Bolt adapter
 * in distribution mode (two workspaces installed): a person sees their workspace if Slack's
 * users.info, asked with that workspace's own token, says they are its admin or owner.
 */
describe("the console's sign-in with Slack", () => {
  let h: SlackHarness;
  let oauth: FakeOAuth;
  let console: ConsoleServer;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    oauth = await FakeOAuth.start();
    const port = await freePort();
    h = await SlackHarness.start({
      env: {
        SLACK_BOT_TOKEN: "",
        SLACK_CLIENT_ID: OAUTH_CLIENT.id,
        SLACK_CLIENT_SECRET: OAUTH_CLIENT.secret,
        SLACK_STATE_SECRET: "state-secret-for-the-tests",
        SECRETS_KEY: randomBytes(32).toString("base64"),
        SLACK_OAUTH_URL: oauth.url,
        CONSOLE_PORT: String(port),
      },
      fake: { oauthClient: OAUTH_CLIENT },
    });
    h.slack.addUser({ id: "UA", name: "ann", teamId: "TA", isAdmin: true });
    h.slack.addUser({ id: "UM", name: "max", teamId: "TA" });
    h.slack.addUser({ id: "UB", name: "bea", teamId: "TB", isAdmin: true });
    await h.install({ teamId: "TA" });
    await h.install({ teamId: "TB" });
    console = await startConsoleFor(h.app, () => [h.adapter]);
    base = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await console?.close();
    await h?.close();
    await oauth?.close();
  });

  async function signInThroughSlack(userId: string, teamId: string) {
    oauth.next = { userId, name: userId, workspaceIds: [teamId] };
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    await page.goto("/login");
    await Promise.all([page.waitForURL(`${base}/`), page.click("a.sign-in")]);
    return page;
  }

  it("shows a workspace's admin their workspace, and refuses the other", async () => {
    const page = await signInThroughSlack("UA", "TA");
    expect(await page.locator("ul.workspaces li").allTextContents()).toEqual(["slack TA"]);
    expect((await page.request.get("/settings?workspace=slack:TA")).status()).toBe(200);
    expect((await page.request.get("/settings?workspace=slack:TB")).status()).toBe(403);
    expect((await page.request.get("/usage?workspace=slack:TB")).status()).toBe(403);
    // the role came from users.info with TA's own token
    expect(h.slack.callsTo("users.info").some((call) => call.params.user === "UA")).toBe(true);
  });

  it("tells a member who is no admin why there is nothing to see", async () => {
    const page = await signInThroughSlack("UM", "TA");
    const alert = await page.textContent("[role=alert]");
    expect(alert).toContain("administer no workspace the bot is in");
    expect(alert).toContain("admin or owner");
    expect((await page.request.get("/usage?workspace=slack:TA")).status()).toBe(403);
  });

  it("does not take a sign-in's workspace for one the person belongs to", async () => {
    // bea is an admin of TB; a sign-in that claims TA for her shows nothing: users.info says she is TB's
    const page = await signInThroughSlack("UB", "TA");
    expect(await page.textContent("[role=alert]")).toContain("administer no workspace");
  });
});
