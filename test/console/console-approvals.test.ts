import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../fakes/discord/payloads.js";
import { FakeOAuth, OAUTH_CLIENT } from "../fakes/fake-oauth.js";
import { reply } from "../fakes/fake-openai.js";
import { isAnswerTo } from "../support/discord-bot.js";
import { ConsoleHarness } from "./console-harness.js";

/**
 * Requests for approval decided in the console, in headless Chromium against the bot started as
 * users start it on the fake Discord: the waiting turn goes on as after a press of the platform's
 * button, the request's message on Discord shows the decision, the audit says who decided and
 * where; someone who does not administer the request's server is refused (403), whatever token
 * they send.
 */
describe("the console's approvals", () => {
  let h: ConsoleHarness;
  let oauth: FakeOAuth;
  beforeAll(async () => {
    oauth = await FakeOAuth.start();
    h = await ConsoleHarness.start({
      env: { DISCORD_CLIENT_ID: OAUTH_CLIENT.id, DISCORD_CLIENT_SECRET: OAUTH_CLIENT.secret, DISCORD_OAUTH_URL: oauth.url },
      // server B, which mona administers (she is only a moderator in server A)
      world: (discord) => {
        discord.world.addGuild("Server B", discord.moderator.id);
      },
    });
    // circumference needs approval in server A, set on the settings page
    const page = await h.signedIn();
    await page.goto(`/settings?workspace=${h.workspace}`);
    await page.selectOption('select[name="approval:circumference"]', "yes");
    await Promise.all([page.waitForLoadState(), page.click("form.settings button[type=submit]")]);
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await oauth?.close();
  });

  /** Asks in #general for a call that needs approval; resolves with the request's id once its buttons are on Discord. */
  async function askForApproval(radius: number, answer: string): Promise<{ question: MessagePayload; id: string }> {
    h.model.script(reply.toolCalls({ name: "circumference", args: { radius } }), reply.text(answer));
    const question = await h.discord.dispatchMessage({
      author: h.discord.member,
      content: `${FakeDiscord.mention(h.discord.bot)} the circumference for radius ${radius}?`,
      mentions: [h.discord.bot],
    });
    for (const deadline = Date.now() + 15_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const [id] = pendingIds();
      const shown =
        id !== undefined && h.discord.calls.some((call) => call.method === "POST" && call.body?.components?.[0]?.components?.[0]?.custom_id?.includes(id));
      if (shown) return { question, id };
      if (Date.now() > deadline) throw new Error("no request for approval was shown on Discord");
    }
  }

  async function signInThroughDiscord(userId: string, name: string): Promise<Page> {
    oauth.next = { userId, name, workspaceIds: [h.discord.guild.id, ...h.discord.world.guilds.keys()] };
    const page = await h.anonymous();
    await page.goto("/login");
    await Promise.all([page.waitForURL(`${h.base}/`), page.click("a.sign-in")]);
    return page;
  }

  const pendingIds = () =>
    h
      .rows<{ id: string }>(`SELECT id FROM approvals WHERE status = 'pending' AND workspace_id = ? ORDER BY requested_at`, h.discord.guild.id)
      .map((row) => row.id);

  it("approves a waiting call from the console: the turn answers on Discord, whose request shows the decision", async () => {
    const { question, id } = await askForApproval(2, "About 12.57.");
    const page = await h.signedIn();
    await page.goto(`/approvals?workspace=${h.workspace}`);
    const row = page.locator(`tr[data-approval="${id}"]`);
    expect(await row.textContent()).toContain("circumference");
    await Promise.all([page.waitForLoadState(), row.locator("button", { hasText: "Approve" }).click()]);
    expect(await page.textContent("[role=status]")).toContain("Approved by");

    // the turn goes on as after a press on Discord: the tool runs, the answer comes
    const answer = await h.discord.waitFor((call) => isAnswerTo(call, question));
    expect(answer.body.content).toContain("About 12.57.");
    // the request's own message on Discord makes way for the decision, its buttons gone
    const settled = await h.discord.waitFor((call) => call.method === "PATCH" && /^✅ Approved by/.test(call.body?.content ?? ""));
    expect(settled.body.components).toEqual([]);
    expect(h.rows(`SELECT status, decided_by AS by, decided_via AS via FROM approvals WHERE id = ?`, id)).toEqual([
      { status: "approved", by: "console-operator", via: "console" },
    ]);
    const [step] = h.rows<{ output: string }>(`SELECT output FROM turn_steps WHERE tool = 'circumference' ORDER BY id DESC LIMIT 1`);
    expect(step!.output).toContain("12.56");
    // and the decided list says who decided, where
    await page.goto(`/approvals?workspace=${h.workspace}`);
    expect(await page.locator(`tr[data-approval="${id}"]`).textContent()).toContain("console-operator");
  });

  it("refuses a decision to someone who does not administer the request's server (403), and lets its admin deny it", async () => {
    const { question, id } = await askForApproval(3, "It did not run.");
    const decide = async (page: Page) => {
      const csrf = await page.inputValue("form.logout input[name=csrf]");
      return page.request.post("/approvals", { form: { csrf, id, decision: "approve" }, maxRedirects: 0 });
    };
    // mona administers server B, not A; alice administers nothing
    for (const [userId, name] of [
      [h.discord.moderator.id, "mona"],
      [h.discord.member.id, "alice"],
    ] as const) {
      const page = await signInThroughDiscord(userId, name);
      const response = await decide(page);
      expect([name, response.status()]).toEqual([name, 403]);
    }
    // nor without the session's CSRF token
    const operator = await h.signedIn();
    expect((await operator.request.post("/approvals", { form: { id, decision: "approve" }, maxRedirects: 0 })).status()).toBe(403);
    expect(pendingIds()).toEqual([id]);

    // bob administers server A (Manage Server): he may decide, as with the button
    const bob = await signInThroughDiscord(h.discord.admin.id, "bob");
    await bob.goto(`/approvals?workspace=${h.workspace}`);
    await Promise.all([bob.waitForLoadState(), bob.locator(`tr[data-approval="${id}"] button`, { hasText: "Deny" }).click()]);
    expect(await bob.textContent("[role=status]")).toContain("Denied by");
    await h.discord.waitFor((call) => isAnswerTo(call, question));
    expect(h.rows(`SELECT status, decided_by AS by, decided_via AS via FROM approvals WHERE id = ?`, id)).toEqual([
      { status: "denied", by: h.discord.admin.id, via: "console" },
    ]);
    // a second decision finds it decided
    const late = await decide(bob);
    expect(late.status()).toBe(200);
    expect(await late.text()).toContain("already decided");
  });
});
