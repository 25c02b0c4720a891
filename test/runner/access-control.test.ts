import { afterEach, describe, expect, it } from "vitest";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const admin = { userId: "boss", role: "admin" as const };

describe("who may make the bot work, and how much", () => {
  let t: TestApp;
  afterEach(() => t.close());

  const run = (text: string, overrides = {}) => {
    const sink = new RecordingSink();
    return t.app.runner.submit(request(text, overrides), sink).then((result) => ({ result, sink }));
  };
  const set = (text: string) => t.app.commands.execute(parseCommandText(text)!, request(""), admin);

  it("limits turns per user per minute, telling a flood once and calling no model", async () => {
    t = await startTestApp({ RATE_LIMIT_PER_USER: "2" });
    t.model.otherwise(reply.text("ok"));
    await run("one");
    await run("two");
    const third = await run("three");
    const fourth = await run("four");
    const otherUser = await run("hello", { userId: "u2" });

    expect(third.result).toMatchObject({ status: "refused", outcome: "rate_limited" });
    expect(third.sink.replies[0]!.text).toBe("You're sending me messages faster than I can take them. Please wait a minute.");
    expect(fourth.result).toMatchObject({ status: "ignored", outcome: "rate_limited" });
    expect(fourth.sink.events).toEqual([]);
    expect(otherUser.result.status).toBe("answered");
    expect(t.model.chatRequests).toHaveLength(3);
  });

  it("stops a workspace at its daily token budget, before calling the model", async () => {
    // Each call's prompt must fit what remains too: the budget leaves room for two turns.
    t = await startTestApp({ DAILY_TOKEN_BUDGET: "3000" });
    t.model.otherwise(reply.text("ok", { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 }));
    expect((await run("first")).result.status).toBe("answered");
    expect((await run("second")).result.status).toBe("answered");
    const third = await run("third");
    const elsewhere = await run("other workspace", { workspaceId: "w2" });

    expect(third.result).toMatchObject({ status: "refused", outcome: "budget_exhausted" });
    expect(third.sink.replies[0]!.text).toMatch(/^This workspace's daily budget \(3,000 tokens\) is used up until \d{4}-\d\d-\d\d 00:00 UTC\.$/);
    expect(elsewhere.result.status).toBe("answered");
    expect(t.model.chatRequests).toHaveLength(3);
    expect(await t.app.store.usage.tokensToday({ platform: "test", workspaceId: "w1" })).toBe(3_000);
  });

  it("refuses a question over the length limit with the numbers", async () => {
    t = await startTestApp({ MAX_QUESTION_CHARS: "10" });
    const { result } = await run("this question is too long");
    expect(result).toMatchObject({ status: "refused", outcome: "too_long" });
    expect(result.text).toBe("Your message is too long for me (25 characters; the limit is 10). Could you shorten it?");
    expect(t.model.chatRequests).toHaveLength(0);
  });

  it("refuses a turn when too many are already waiting in the conversation", async () => {
    t = await startTestApp({ MAX_QUEUED_TURNS: "2" });
    t.model.otherwise(reply.delayed(100, reply.text("slow answer")));
    const pending = [run("a"), run("b")];
    const third = await run("c");
    const done = await Promise.all(pending);

    expect(third.result).toMatchObject({ status: "refused", outcome: "queue_full" });
    expect(done.map((d) => d.result.status)).toEqual(["answered", "answered"]);
  });

  it("answers only in allowed channels (and their threads) once an admin sets a list", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("ok"));
    expect(await set("settings channels add <#c2|general>")).toMatchObject({ ok: true, text: "I now answer only in: <#c2>." });

    const blocked = await run("hi", { channelId: "c1" });
    const allowed = await run("hi", { channelId: "c2" });
    const inThread = await run("hi", { channelId: "t9", parentChannelId: "c2" });
    expect(blocked.result).toMatchObject({ status: "refused", outcome: "channel_not_allowed" });
    expect(allowed.result.status).toBe("answered");
    expect(inThread.result.status).toBe("answered");

    await set("settings channels all");
    expect((await run("hi again", { channelId: "c1" })).result.status).toBe("answered");
  });

  it("ignores users and roles an admin listed, silently", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("ok"));
    await set("settings ignore-user <@troll>");
    await set("settings ignore-role <@&muted>");

    const troll = await run("hi", { userId: "troll" });
    const muted = await run("hi", { userId: "u5", userRoleIds: ["muted"] });
    expect(troll.result.status).toBe("ignored");
    expect(troll.sink.events).toEqual([]);
    expect(muted.result.status).toBe("ignored");
    expect(t.model.chatRequests).toHaveLength(0);

    await set("settings unignore-user troll");
    expect((await run("hi", { userId: "troll" })).result.status).toBe("answered");
  });

  it("says where an ignore list applies: a workspace's channels and its members' DMs, or every DM for the list of DMs without a workspace", async () => {
    t = await startTestApp();
    const inWorkspace = await set("settings ignore-user <@troll>");
    expect(inWorkspace.text).toBe(
      "I'll ignore <@troll> in this workspace: in its channels, and in their direct messages with me while they are a member of it. Other workspaces are not affected.",
    );
    const inDms = await t.app.commands.execute(parseCommandText("settings ignore-user <@troll>")!, request("", { workspaceId: "dm", isDm: true }), admin);
    expect(inDms.text).toBe("I'll ignore <@troll> in every direct message with me. Each server or workspace keeps its own list for its channels.");
    expect((await set("settings unignore-user troll")).text).toBe("I'll listen to <@troll> again in this workspace.");
  });

  it("applies a workspace's memory window and extra instructions to the next turn", async () => {
    t = await startTestApp({ MEMORY_WINDOW_MAX: "3" });
    t.model.otherwise((req) => ({ kind: "message", content: `re: ${req.body.messages.at(-1).content}` }));
    await run("one");
    await run("two");
    expect(await set("settings memory 9")).toMatchObject({ ok: false, text: "The memory window must be a whole number from 1 to 3." });
    expect((await set("settings memory 1")).ok).toBe(true);
    expect((await set("settings prompt Always answer like a pirate.")).ok).toBe(true);
    await run("three");

    const sent = t.model.chatRequests[2]!.body.messages;
    expect(sent[0].content).toMatch(/\n\nAlways answer like a pirate\.$/);
    expect(sent.slice(1).map((m: any) => m.content)).toEqual(["two", "re: two", "three"]);
  });

  it("lets only admins change settings, and records who changed what", async () => {
    t = await startTestApp();
    const refused = await t.app.commands.execute(parseCommandText("settings memory 2")!, request(""), { userId: "u1", role: "member" as const });
    expect(refused).toMatchObject({ ok: false, denied: "admin" });
    await set("settings memory 2");
    await set("tools disable calculator");

    const changes = t.store.db.prepare("SELECT key, value_json AS value, changed_by AS who FROM settings_changes ORDER BY id").all();
    expect(changes).toEqual([
      { key: "memoryWindow", value: "2", who: "boss" },
      { key: "tool:calculator", value: "false", who: "boss" },
    ]);
    expect((await t.app.commands.execute({ kind: "settings_show" }, request(""), { userId: "u1", role: "member" as const })).text).toContain(
      "Memory window: 2 exchanges _(server)_, at most 20",
    );
  });
});
