import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import type { FakeMessage } from "../../fakes/slack/messages.js";
import { SlackHarness } from "../../support/slack-harness.js";

/**
 * Slack's agent surface with the real Bolt: suggested prompts in a new assistant thread, built
 * from the tools enabled in the workspace; the thread named after its first question; and the
 * App Home: the person's usage today and daily budget, memory controls, and for admins the settings.
 */
describe("Slack: assistant threads and App Home", () => {
  let h: SlackHarness;
  afterEach(() => h?.close());

  const start = (env: Record<string, string> = {}) =>
    SlackHarness.start({ env: { DEFAULT_TOOLS: "calculator,get_time,convert_currency,wikipedia,circumference", ...env } }).then((harness) => {
      h = harness;
      h.slack.addUser({ id: "U1", name: "ann" });
      h.slack.addUser({ id: "UADMIN", name: "boss", isAdmin: true });
    });
  const threadStarted = (threadTs: string, user = "U1") =>
    h.deliver({
      type: "assistant_thread_started",
      assistant_thread: { user_id: user, channel_id: "D1", thread_ts: threadTs, context: {} },
      event_ts: threadTs,
    });

  it("offers up to four prompts from the tools enabled in the workspace, and names the thread after its first question", async () => {
    await start();
    const first = h.slack.nextTs();
    await threadStarted(first);
    const offered = await h.slack.waitFor(() => h.slack.suggestedPrompts.get(`D1/${first}`), { what: "the suggested prompts" });
    expect(offered.prompts).toEqual([
      { title: "Calculator", message: "What is 17.5% of 2,340?" },
      { title: "Circumference", message: "What is the circumference of a circle of radius 7.81?" },
      { title: "Get time", message: "What time is it in Tokyo?" },
      { title: "Convert currency", message: "How much is 250 USD in euros?" },
    ]);

    // An admin turns the calculator off: the next thread is offered the others.
    await h.app.store.toolSettings.set({ platform: "slack", workspaceId: "T1" }, "calculator", false, "UADMIN");
    const second = h.slack.nextTs();
    await threadStarted(second);
    const next = await h.slack.waitFor(() => h.slack.suggestedPrompts.get(`D1/${second}`), { what: "the next prompts" });
    expect(next.prompts.map((prompt) => prompt.title)).toEqual(["Circumference", "Get time", "Convert currency", "Wikipedia"]);

    h.model.script(reply.text("Tokyo is 9 hours ahead of UTC."), reply.text("Still 9."));
    await h.message({
      user: "U1",
      channel: "D1",
      channelType: "im",
      ts: h.slack.nextTs(),
      threadTs: first,
      text: "What time is it in Tokyo right now?\nAnd in Osaka?",
    });
    await h.slack.waitFor(() => h.slack.thread("D1", first).find((m) => m.text.startsWith("Tokyo")), { what: "the answer" });
    expect(h.slack.threadTitles.get(`D1/${first}`)).toBe("What time is it in Tokyo right now?");
    // Only the first question names it.
    await h.message({ user: "U1", channel: "D1", channelType: "im", ts: h.slack.nextTs(), threadTs: first, text: "thanks" });
    await h.slack.waitFor(() => h.slack.thread("D1", first).find((m) => m.text === "Still 9."), { what: "the second answer" });
    await h.idle();
    expect(h.slack.callsTo("assistant.threads.setTitle")).toHaveLength(1);
  });

  it("publishes App Home with the person's usage today and what their daily budget leaves, and the memory controls; admins see the settings", async () => {
    await start({ DAILY_USER_TOKEN_BUDGET: "10000" });
    h.model.script(reply.text("Hello.", { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 }));
    await h.message({ user: "U1", channel: "D1", channelType: "im", ts: h.slack.nextTs(), text: "hi" });
    await h.slack.waitFor(() => h.slack.messages.find((m) => m.text === "Hello."), { what: "the answer" });
    await h.idle();

    await h.deliver({ type: "app_home_opened", user: "U1", channel: "D1", tab: "home", event_ts: h.slack.nextTs() });
    const home = await h.slack.waitFor(() => h.slack.homes.get("U1"), { what: "the Home tab" });
    const text = home.blocks.map((block: any) => block.text?.text ?? "").join("\n");
    expect(text).toContain("*Your usage today* (UTC): 150 tokens.");
    expect(text).toContain("Your daily budget: 9,850 tokens left of 10,000 tokens (DAILY_USER_TOKEN_BUDGET).");
    expect(text).not.toContain("This workspace (admins)");
    const actions = home.blocks.find((block: any) => block.type === "actions");
    expect(actions.elements.map((e: any) => e.action_id)).toEqual(["home_memory_show", "home_forget_me"]);

    // Forget me, pressed on the Home tab: the tab is published again with the result.
    const tab = { channel: "D1", ts: "0", text: "", postedBlocks: home.blocks } as unknown as FakeMessage;
    const published = h.slack.callsTo("views.publish").length;
    await h.press("U1", tab, "home_forget_me");
    await h.slack.waitFor(() => h.slack.callsTo("views.publish").length > published, { what: "the Home tab again" });
    const after = h.slack.homes
      .get("U1")!
      .blocks.map((block: any) => block.text?.text ?? "")
      .join("\n");
    expect(after).toMatch(/Done: I removed \d+ indexed message\(s\) of yours and 1 of your exchanges with me here/);

    await h.deliver({ type: "app_home_opened", user: "UADMIN", channel: "D2", tab: "home", event_ts: h.slack.nextTs() });
    const admin = await h.slack.waitFor(() => h.slack.homes.get("UADMIN"), { what: "the admin's Home tab" });
    const adminText = admin.blocks.map((block: any) => block.text?.text ?? "").join("\n");
    expect(adminText).toContain("This workspace (admins)");
    expect(adminText).toContain("calculator");
  });
});
