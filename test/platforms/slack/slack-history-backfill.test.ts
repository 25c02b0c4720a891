import { describe, expect } from "vitest";
import { botTest as it } from "../../support/started-bots.js";
import type { PastSlackMessage } from "../../fakes/slack/conversations.js";

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Issue 24 §2 on Slack, with the real Bolt: `/settings channel history backfill DAYS` pages through
 * conversations.history, reads each thread with conversations.replies, waits out a rate limit,
 * posts its progress in the channel, and after a restart goes on from the stored cursor.
 */
describe("Slack: a channel's history backfill", () => {
  it("reads 700 messages and a thread's replies with their permalinks, within a rate limit, and resumes after a restart", async ({ startSlack }) => {
    const h = await startSlack({ app: { backfillPacing: { pageIntervalMs: 0, progressEveryPages: 2 } } });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.slack.addUser({ id: "UADMIN", name: "boss", isAdmin: true });
    const start = Math.floor(Date.now() / 1000) - 700 * 60;
    const ts = (i: number, sub = 0) => `${start + i * 60}.${String(100 + sub).padStart(6, "0")}`;
    const past: PastSlackMessage[] = Array.from({ length: 700 }, (_, i) =>
      i === 100 ? { ts: ts(i), botId: "B9", text: "a bot's chatter" } : { ts: ts(i), user: "U1", text: `old note ${i} about lunch` },
    );
    past.push(
      { ts: ts(650, 1), user: "U1", threadTs: ts(650), text: "first reply" },
      { ts: ts(650, 2), user: "U1", threadTs: ts(650), text: "the escrow code is QV-3141" },
    );
    h.slack.conversations.seed("C1", past);
    // Slack asks to slow down once (page 2); page 3 is slow, past the shutdown's grace: the process restarts meanwhile
    h.slack.fail("conversations.history", { ratelimited: { retryAfterSeconds: 1 } }, { when: (params) => params.cursor === "200" });
    h.slack.fail("conversations.history", { delayMs: 6_000 }, { when: (params) => params.cursor === "400" });

    const off = await h.command("/settings", "channel history backfill 1", "UADMIN");
    expect((await h.answersAt(off.responseUrl))[0]).toMatch(/History is off/);
    await h.command("/settings", "channel history on", "UADMIN");
    const refused = await h.command("/settings", "channel history backfill 1", "U1");
    expect((await h.answersAt(refused.responseUrl))[0]).toMatch(/admins/);
    const run = await h.command("/settings", "channel history backfill 1", "UADMIN");
    expect((await h.answersAt(run.responseUrl))[0]).toMatch(/reading the last 1 day/);

    const posted = () => h.slack.messages.filter((m) => m.channel === "C1" && !m.threadTs).map((m) => m.text);
    await eventually(() => h.slack.callsTo("conversations.history").some((call) => call.params.cursor === "400"));
    expect(posted().some((text) => /History backfill: 402 message\(s\) read so far/.test(text))).toBe(true);
    await h.restart();

    await eventually(() => posted().some((text) => text.startsWith("History backfill done")));
    await h.app.backfills.idle();
    expect(posted().some((text) => /Resuming the history backfill here \(402 message\(s\) read so far\)/.test(text))).toBe(true);
    expect(posted().find((text) => text.startsWith("History backfill done"))).toMatch(/701 earlier message\(s\)/);
    // the rate-limited page was asked again after Retry-After, once
    expect(h.slack.callsTo("conversations.history").filter((call) => call.params.cursor === "200")).toHaveLength(2);
    expect(h.slack.callsTo("conversations.replies")).toHaveLength(1);

    const search = (text: string) => h.app.store.history.search({ platform: "slack", workspaceId: "T1", channelId: "C1", text, limit: 10 });
    const [escrow] = await search("QV-3141");
    expect(escrow).toMatchObject({ authorName: "alice", threadId: ts(650) });
    expect(escrow!.link).toBe(`https://fake.slack.test/archives/C1/p${ts(650, 2).replace(".", "")}?thread_ts=${ts(650)}&cid=C1`);
    expect(await search("chatter")).toEqual([]);
  });
});
