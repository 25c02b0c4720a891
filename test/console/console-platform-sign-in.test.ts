import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeGuild } from "../fakes/discord/world.js";
import { FakeOAuth, OAUTH_CLIENT } from "../fakes/fake-oauth.js";
import { ConsoleHarness } from "./console-harness.js";

/**
 * Sign in with Discord against a fake OAuth2 server: a person sees the servers the bot is in where
 * the bot's own view of their roles makes them an admin (Manage Server), whatever else their
 * sign-in lists, and someone who administers none is told why.
 */
describe("the console's sign-in with Discord", () => {
  let h: ConsoleHarness;
  let oauth: FakeOAuth;
  let other: FakeGuild;
  let otherChannel: string;
  beforeAll(async () => {
    oauth = await FakeOAuth.start();
    h = await ConsoleHarness.start({
      env: { DISCORD_CLIENT_ID: OAUTH_CLIENT.id, DISCORD_CLIENT_SECRET: OAUTH_CLIENT.secret, DISCORD_OAUTH_URL: oauth.url },
      // server B: the bot is in it, and the admin of server A is a plain member there
      world: (discord) => {
        other = discord.world.addGuild("Server B", discord.moderator.id);
        discord.world.addMember(other.id, discord.admin.id);
        otherChannel = discord.world.addTextChannel(other.id, "general").id;
      },
    });
    await h.ask("a question in server A");
    await h.ask("a question in server B", otherChannel);
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await oauth?.close();
  });

  async function signInThroughDiscord(userId: string, name: string) {
    oauth.next = { userId, name, workspaceIds: [h.discord.guild.id, other.id, "999999999999999999"] };
    const page = await h.anonymous();
    await page.goto("/login");
    await Promise.all([page.waitForURL(`${h.base}/`), page.click("a.sign-in")]);
    return page;
  }

  it("shows an admin of server A server A, and refuses server B", async () => {
    const page = await signInThroughDiscord(h.discord.admin.id, "bob");
    expect(await page.locator("ul.workspaces li").allTextContents()).toEqual([`discord ${h.discord.guild.id}`]);
    await page.goto("/usage");
    expect(await page.locator("select[name=workspace] option").allTextContents()).toEqual([`discord ${h.discord.guild.id}`]);
    expect(digitsOf(await page.locator('[data-card="Last 30 days"] [data-figure=turns]').textContent())).toBe(1);
    for (const path of [`/usage?workspace=discord:${other.id}`, `/settings?workspace=discord:${other.id}`, `/turns?workspace=discord:${other.id}`]) {
      const response = await page.request.get(path);
      expect([path, response.status()]).toEqual([path, 403]);
    }
    // nor a turn of B, nor a change there, even with the session's own CSRF token
    const [turnInB] = h.rows<{ id: string }>(`SELECT t.id FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.workspace_id = ?`, other.id);
    expect((await page.request.get(`/turns/${turnInB!.id}`)).status()).toBe(403);
    for (const path of [`/approvals?workspace=discord:${other.id}`, `/schedules?workspace=discord:${other.id}`]) {
      expect([path, (await page.request.get(path)).status()]).toEqual([path, 403]);
    }
    await page.goto(`/settings?workspace=${h.workspace}`);
    const csrf = await page.inputValue("form.settings input[name=csrf]");
    const change = await page.request.post("/settings", { form: { csrf, workspace: `discord:${other.id}`, version: "0", prompt: "from A's admin" } });
    expect(change.status()).toBe(403);
    expect(h.rows(`SELECT key FROM settings_changes WHERE workspace_id = ?`, other.id)).toEqual([]);
    // what spans every workspace is the operator's
    expect((await page.request.get("/usage.csv")).status()).toBe(403);
    expect((await page.request.get("/turns")).status()).toBe(200);
    await page.goto("/turns");
    expect(await page.textContent("main")).toContain("No turn matches.");
    await h.screenshot(page, "signed-in-admin");
  });

  it("tells a member without Manage Server why there is nothing to see", async () => {
    const page = await signInThroughDiscord(h.discord.member.id, "alice");
    const alert = await page.textContent("[role=alert]");
    expect(alert).toContain("administer no server the bot is in");
    expect(alert).toContain("Manage Server or Administrator");
    expect((await page.request.get(`/usage?workspace=${h.workspace}`)).status()).toBe(403);
    await page.goto("/settings");
    expect(await page.textContent("[role=alert]")).toContain("administer no server");
  });

  it("refuses a callback that did not start in this browser", async () => {
    const page = await h.anonymous();
    const response = await page.request.get("/login/discord/callback?code=stolen&state=forged");
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("did not start here");
  });
});

const digitsOf = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));
