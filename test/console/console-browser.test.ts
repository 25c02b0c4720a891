import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagePayload } from "../fakes/discord/payloads.js";
import { reply } from "../fakes/fake-openai.js";
import { ConsoleHarness, TOKEN } from "./console-harness.js";

/**
 * The operator's console in headless Chromium, against the bot started as users start it (the
 * built dist/main.js on the fake Discord and the fake model): what the pages show, that changes go
 * through the commands, and the security rules (sessions, CSRF, CSP, Host).
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const digits = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));

describe("the operator's console", () => {
  let h: ConsoleHarness;
  /** The first question (two tool steps, then the answer, which a member rates 👍). */
  let asked: MessagePayload;
  beforeAll(async () => {
    h = await ConsoleHarness.start();
    h.model.script(
      reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }),
      reply.toolCalls({ name: "circumference", args: { radius: 2 } }),
      reply.text("42, and about 12.57.", { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 }),
    );
    asked = await h.ask("what is 6*7, and the circumference for radius 2?");
    const answer = h.discord.messagesIn(asked.channel_id).find((message) => message.message_reference?.message_id === asked.id)!;
    const thumbsUp = (answer.components as any[]).flatMap((row) => row.components).find((button) => button.custom_id?.endsWith(":up"));
    await h.discord.callbackOf(await h.discord.pressButton({ user: h.discord.member, message: answer, customId: thumbsUp.custom_id }));
    await h.ask("a second question");
  }, 90_000);
  afterAll(() => h?.close());

  it("signs in with the token and shows the overview, which refreshes itself from its script file", async () => {
    const page = await h.signedIn();
    expect(await page.textContent("h1")).toBe("Overview");
    expect(await page.textContent("main")).toContain("SQLite");
    expect(await page.locator("table").first().textContent()).toContain("discord");
    // /assets/console.js polls /overview.json: the time of its last update replaces "now"
    // (the page's CSP refuses evaluated strings, so the test polls what the page shows)
    for (const deadline = Date.now() + 15_000; (await page.textContent("[data-updated]")) === "now"; await page.waitForTimeout(100)) {
      if (Date.now() > deadline) throw new Error("the overview did not refresh itself");
    }
    await h.screenshot(page, "overview");
  });

  it("shows usage cards equal to the store's figures and to /usage, and the chart by model", async () => {
    const page = await h.signedIn();
    await page.goto(`/usage?workspace=${h.workspace}`);
    // a direct count over the turns that ended, from the first of the 30 UTC days on
    const since = (Math.floor(Date.now() / DAY_MS) - 29) * DAY_MS;
    const [store] = h.rows<{ turns: number; input: number; output: number }>(
      `SELECT COUNT(*) AS turns, SUM(prompt_tokens) AS input, SUM(completion_tokens) AS output FROM turns t JOIN conversations c ON c.id = t.conversation_id
       WHERE c.platform = 'discord' AND c.workspace_id = ? AND t.started_at >= ? AND t.status <> 'running'`,
      h.discord.guild.id,
      since,
    );
    expect(store!.turns).toBe(2);
    for (const label of ["Today", "Last 30 days"]) {
      const card = page.locator(`[data-card="${label}"]`);
      expect(digits(await card.locator("[data-figure=turns]").textContent())).toBe(store!.turns);
      expect(digits(await card.locator("[data-figure=in]").textContent())).toBe(store!.input);
      expect(digits(await card.locator("[data-figure=out]").textContent())).toBe(store!.output);
    }
    expect(digits(await page.locator('[data-card="Yesterday"] [data-figure=turns]').textContent())).toBe(0);
    expect(await page.locator(".chart svg rect").count()).toBeGreaterThan(0);
    expect(await page.locator(".legend").textContent()).toContain("gpt-4o-mini");

    // the /usage command reads the same query layer: its 30 days' line says the same
    const interaction = await h.discord.dispatchCommand({ user: h.discord.admin, name: "usage" });
    const call = await h.discord.waitFor(
      (c) => (c.path.includes(`/interactions/${interaction.id}/`) || c.path.includes(`/webhooks/`)) && typeof c.body?.data?.content === "string",
    );
    const text = call.body.data.content as string;
    const line = `${store!.turns} turns, ${store!.input.toLocaleString("en-US")} tokens in, ${store!.output.toLocaleString("en-US")} out`;
    expect(text).toContain(`**Last 30 days:** ${line}`);
    expect(text).toContain(`**Today (UTC):** ${line}`);
    await h.screenshot(page, "usage");

    const csv = await page.request.get("/usage.csv");
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect(await csv.text()).toContain(`30,discord,${h.discord.guild.id},total,,${store!.turns},${store!.input},${store!.output}`);
  });

  it("lists turns with filters and shows a turn's steps in order, with the question and the answer", async () => {
    const page = await h.signedIn();
    await page.goto(`/turns?workspace=${h.workspace}&tool=circumference`);
    const links = page.locator("table.turns tbody tr a");
    expect(await links.count()).toBe(1);
    await h.screenshot(page, "turns");
    await Promise.all([page.waitForURL(/\/turns\/.+/), links.first().click()]);
    expect(await page.locator(".step").evaluateAll((steps) => steps.map((step) => step.getAttribute("data-tool")))).toEqual(["calculator", "circumference"]);
    // the model calls among the steps, in order, each with its tokens and its latency
    const timeline = await page.locator(".timeline > li").evaluateAll((items) => items.map((item) => item.getAttribute("data-tool") ?? item.className));
    expect(timeline).toEqual(["model-call", "calculator", "model-call", "circumference", "model-call"]);
    expect(await page.locator(".model-call .tokens").allTextContents()).toEqual(["10 in / 5 out", "10 in / 5 out", "300 in / 20 out"]);
    expect(await page.locator(".model-call .latency").allTextContents()).toEqual(Array(3).fill(expect.stringMatching(/^\d+ ms$/)));
    // the 👍 and who gave it
    expect(await page.locator(".feedback li").allTextContents()).toEqual([expect.stringContaining(`👍 helpful by ${h.discord.member.id}`)]);
    // the question's message on Discord, whose reply is the answer: the link its platform made
    expect(await page.getAttribute("a.platform-link", "href")).toBe(`https://discord.com/channels/${h.discord.guild.id}/${asked.channel_id}/${asked.id}`);
    expect(await page.textContent(".question")).toContain("what is 6*7");
    expect(await page.locator(".step").first().textContent()).toContain("42");
    expect(await page.textContent(".answer")).toBe("42, and about 12.57.");
    // three model calls: two that called tools (10 in, 5 out each) and the answer's (300 in, 20 out)
    expect(await page.textContent("main")).toContain("320 / 30");
    await h.screenshot(page, "turn");
  });

  it("switches a tool off in a channel through the settings form: the next turn there is refused it", async () => {
    const page = await h.signedIn();
    await page.goto(`/settings?workspace=${h.workspace}&channel=${h.discord.general.id}`);
    await page.selectOption('select[name="tool:calculator"]', "off");
    await Promise.all([page.waitForLoadState(), page.click("form.settings button[type=submit]")]);
    expect(await page.textContent("main")).toContain("calculator");
    expect(await page.inputValue('select[name="tool:calculator"]')).toBe("off");
    // the command's own audit entry
    expect(h.rows<{ by: string }>(`SELECT changed_by AS by FROM settings_changes WHERE key = ?`, `channel:${h.discord.general.id}:tool:calculator`)).toEqual([
      { by: "console-operator" },
    ]);
    await h.screenshot(page, "settings");

    const before = h.model.chatRequests.length;
    h.model.script(reply.toolCalls({ name: "calculator", args: { expression: "1+1" } }), reply.text("I could not calculate."));
    await h.ask("what is 1+1?");
    const offered = (h.model.chatRequests[before]!.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
    expect(offered).not.toContain("calculator");
    const [step] = h.rows<{ error: string }>(`SELECT error FROM turn_steps WHERE tool = 'calculator' ORDER BY id DESC LIMIT 1`);
    expect(step!.error).toContain('there is no tool named "calculator" available here');
  });

  it("refuses a stale settings form and says what changed since", async () => {
    const first = await h.signedIn();
    const second = await h.signedIn();
    for (const page of [first, second]) await page.goto(`/settings?workspace=${h.workspace}`);
    await first.fill("textarea[name=prompt]", "Answer briefly.");
    await Promise.all([first.waitForLoadState(), first.click("form.settings button[type=submit]")]);
    expect(await first.textContent("main")).toContain("Answer briefly.");

    await second.fill("input[name=memoryWindow]", "7");
    const [response] = await Promise.all([
      second.waitForResponse((r) => r.url().endsWith("/settings") && r.request().method() === "POST"),
      second.click("form.settings button[type=submit]"),
    ]);
    expect(response.status()).toBe(409);
    const alert = await second.textContent("[role=alert]");
    expect(alert).toContain("nothing was saved");
    expect(alert).toContain("systemPrompt");
    expect(h.rows(`SELECT key FROM workspace_settings WHERE key = 'memoryWindow'`)).toEqual([]);
  });

  it("audits a budget set on the settings page like the command's, and a form opened before it is then stale", async () => {
    const first = await h.signedIn();
    const second = await h.signedIn();
    for (const page of [first, second]) await page.goto(`/settings?workspace=${h.workspace}`);
    await first.fill("input[name=budgetDay]", "50k");
    await Promise.all([first.waitForLoadState(), first.click("form.settings button[type=submit]")]);
    expect(await first.textContent("main")).toContain("50,000 tokens");
    expect(h.rows(`SELECT value_json AS value, changed_by AS by FROM settings_changes WHERE key = 'budget:workspace::day'`)).toEqual([
      { value: '{"unit":"tokens","amount":50000}', by: "console-operator" },
    ]);

    await second.fill("input[name=memoryWindow]", "9");
    const [response] = await Promise.all([
      second.waitForResponse((r) => r.url().endsWith("/settings") && r.request().method() === "POST"),
      second.click("form.settings button[type=submit]"),
    ]);
    expect(response.status()).toBe(409);
    expect(await second.textContent("[role=alert]")).toContain("budget:workspace::day");

    // removing it is audited too
    await first.goto(`/settings?workspace=${h.workspace}`);
    await first.fill("input[name=budgetDay]", "");
    await Promise.all([first.waitForLoadState(), first.click("form.settings button[type=submit]")]);
    expect(h.rows(`SELECT value_json AS value FROM settings_changes WHERE key = 'budget:workspace::day' ORDER BY id`)).toEqual([
      { value: '{"unit":"tokens","amount":50000}' },
      { value: "null" },
    ]);
  });

  it("refuses a change without the CSRF token (403) and every page without a session", async () => {
    const page = await h.signedIn();
    const post = await page.request.post("/settings", { form: { workspace: h.workspace, version: "0", prompt: "sneaky" }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
    const wrong = await page.request.post("/schedules", { form: { csrf: "not-the-token", id: "x", action: "run" }, maxRedirects: 0 });
    expect(wrong.status()).toBe(403);

    const stranger = await h.anonymous();
    for (const path of ["/", "/usage", "/turns", "/schedules", "/settings", "/approvals", "/usage.csv"]) {
      const response = await stranger.request.get(path, { maxRedirects: 0 });
      expect([path, response.status(), response.headers().location]).toEqual([path, 303, "/login"]);
    }
    await stranger.goto("/turns");
    expect(stranger.url()).toBe(`${h.base}/login`);
    await h.screenshot(stranger, "login");
    expect((await stranger.request.post("/settings", { form: { prompt: "x" }, maxRedirects: 0 })).status()).toBe(401);
    expect((await stranger.request.get("/usage", { headers: { authorization: "Bearer wrong" } })).status()).toBe(401);
    expect((await stranger.request.get("/usage", { headers: { authorization: `Bearer ${TOKEN}` } })).status()).toBe(200);
  });

  it("sends a Content-Security-Policy without inline script, a strict session cookie, and refuses a foreign Host", async () => {
    const page = await h.anonymous();
    const login = await page.request.post("/login", { form: { token: TOKEN }, maxRedirects: 0 });
    expect(login.status()).toBe(303);
    expect(login.headers()["set-cookie"]).toMatch(/^console_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const response = await page.request.get("/");
    const csp = response.headers()["content-security-policy"];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(await response.text()).not.toMatch(/<script>|<script [^>]*>[^<]/);

    expect((await h.raw("/login", { host: `evil.example:${h.port}` })).status).toBe(421);
    expect((await h.raw("/login", { host: `localhost:${h.port}` })).status).toBe(200);
  });

  it("shows approvals and schedules, and rate-limits sign-in attempts", async () => {
    const page = await h.signedIn();
    await page.goto("/approvals");
    expect(await page.textContent("main")).toContain("Pending");
    await h.screenshot(page, "approvals");
    await page.goto(`/schedules?workspace=${h.workspace}`);
    expect(await page.textContent("main")).toContain("No scheduled task");

    const interaction = await h.discord.dispatchCommand({
      user: h.discord.admin,
      name: "schedule",
      subcommand: "add",
      options: [
        { name: "when", value: "every day at 9:00" },
        { name: "task", value: "say good morning" },
      ],
    });
    const added = await h.discord.waitFor((c) => c.path === `/interactions/${interaction.id}/${interaction.token}/callback`);
    const id = /`([0-9a-f]{8})`/.exec(added.body.data.content)![1]!;
    const status = () => h.rows<{ status: string }>(`SELECT status FROM scheduled_tasks WHERE id = ?`, id)[0]?.status;
    await page.goto(`/schedules?workspace=${h.workspace}`);
    const task = page.locator(`[data-task="${id}"]`);
    await Promise.all([page.waitForLoadState(), task.locator("button", { hasText: "Pause" }).click()]);
    expect(status()).toBe("paused");
    expect(await page.textContent("[role=status]")).toContain(id);
    await Promise.all([page.waitForLoadState(), page.locator(`[data-task="${id}"] button`, { hasText: "Resume" }).click()]);
    expect(status()).toBe("active");
    await h.screenshot(page, "schedules");

    const stranger = await h.anonymous();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await stranger.request.post("/login", { form: { token: `guess-${i}` }, maxRedirects: 0 })).status());
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
