import { afterEach, describe, expect, it } from "vitest";
import type { App } from "../../src/app.js";
import type { Role } from "../../src/contract/inbound.js";
import type { PlatformLink } from "../../src/contract/link.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSurface } from "../support/recording-surface.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

/**
 * Scheduled tasks end to end (issue 26) with the real runner, the real openai client against the
 * fake model and a real SQLite file; the platform is the recording surface, connected like any.
 */
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function connect(app: App, surface = new RecordingSurface()) {
  const link = app.links.connect({
    surface,
    allowDms: true,
    hasRoles: false,
    commandName: (group) => `/${group}`,
    roleNames: { admin: "(admins)", moderator: "(moderators)" },
  });
  return { surface, link };
}

async function command(link: PlatformLink, text: string, user = "admin1", role: Role = "admin") {
  const parsed = link.parseCommand(text);
  if (!parsed) throw new Error(`not a command: ${text}`);
  return link.runCommand(parsed, { platform: "test", workspaceId: "w1", channelId: "c1", isDm: false, actor: { id: user, role, isBot: false } });
}

const idIn = (text: string) => /`([0-9a-f]{8})`/.exec(text)?.[1] ?? "";

describe("scheduled tasks, run as turns", () => {
  it("runs a task 2 seconds away once: a new post in the channel, its steps in the post's thread, and its history", async () => {
    test = await startTestApp();
    test.model.script(
      reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }),
      reply.text("It is 42.", { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 }),
    );
    const { surface, link } = connect(test.app);

    const added = await command(link, "/schedule add in 2 seconds | What is 6*7?");
    expect(added.ok).toBe(true);
    expect(added.text).toMatch(/^Scheduled `[0-9a-f]{8}` \(once, UTC\): What is 6\*7\?\nNext: \w{3}, \d+ \w{3} \d{4}, \d\d:\d\d\.$/);
    const id = idIn(added.text);
    expect(surface.calls).toHaveLength(0);

    await waitFor("the run's answer", () => surface.transcript.find((line) => line.includes("It is 42.")));
    const header = surface.calls[0];
    expect(header).toMatchObject({ op: "post", to: { location: { channelId: "c1" } } });
    expect(header?.text).toBe(`⏰ Scheduled task \`${id}\` by <@admin1>: What is 6*7?`);
    // The steps go in the thread opened on the run's post.
    expect(surface.transcript).toContain(`thread ${header?.id}`);
    const step = surface.calls.find((call) => call.options?.kind === "step" && call.text?.includes("calculator"));
    expect(step?.to?.location.channelId).toBe(`thread-of-${header?.id}`);

    const history = await waitFor("the run's record", async () => {
      const result = await command(link, `/schedule history ${id}`);
      return result.text.includes(" ok ") || result.text.includes("· ok ·") ? result.text : undefined;
    });
    // Both model calls are charged: the tool call's and the answer's 42.
    const tokens = Number(/· ok · (\d+) tokens · <#c1> message m1/.exec(history)?.[1]);
    expect(tokens).toBeGreaterThan(42);
    const list = await command(link, "/schedule list");
    expect(list.text).toContain(`\`${id}\` in 2 seconds (<#c1>): What is 6*7?, by <@admin1>; next: done; last: ok`);
    // The run is a conversation of its own: the channel's memory window stays empty.
    expect(test.store.db.prepare("SELECT COUNT(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.thread_id = ''").pluck().get()).toBe(
      0,
    );
  });

  it("pauses, resumes, runs now and shows the history; refuses a member without `settings schedules members`, and too frequent crons", async () => {
    test = await startTestApp({ SCHEDULE_TIMEZONE: "Europe/Paris" });
    test.model.otherwise(reply.text("Done."));
    const { surface, link } = connect(test.app);

    const refused = await command(link, "/schedule add every weekday at 9 | Post the news", "member1", "member");
    expect(refused).toMatchObject({ ok: false, text: expect.stringContaining("Only admins can create scheduled tasks here") });
    expect((await command(link, "/settings schedules members", "member1", "member")).ok).toBe(false);
    expect((await command(link, "/settings schedules members")).text).toContain("Members may now create scheduled tasks");

    const added = await command(link, "/schedule add every weekday at 9 | Post the news", "member1", "member");
    expect(added.ok).toBe(true);
    expect(added.text).toMatch(/\(`0 9 \* \* 1-5`, Europe\/Paris\): Post the news\nNext: \w{3}, .*09:00; \w{3}, .*09:00; \w{3}, .*09:00\./);
    const id = idIn(added.text);

    const tooOften = await command(link, "/schedule add */2 * * * * | Check the deploy");
    expect(tooOften).toMatchObject({
      ok: false,
      text: expect.stringContaining("would run every 2 minutes; recurring tasks may run at most once every 5 minutes"),
    });
    expect((await command(link, "/schedule add every 5 minutes | Check the deploy")).ok).toBe(true);

    // Members manage their own tasks only.
    expect((await command(link, `/schedule pause ${id}`, "member2", "member")).ok).toBe(false);
    expect((await command(link, `/schedule pause ${id}`, "member1", "member")).text).toContain(`Paused \`${id}\``);
    expect((await command(link, "/schedule list")).text).toMatch(new RegExp(`\`${id}\` every weekday at 9 .*next: paused; last: none yet`));
    expect((await command(link, `/schedule resume ${id}`, "admin1")).text).toMatch(/Resumed `[0-9a-f]{8}`; next run: \w{3}, .*09:00\./);

    expect((await command(link, `/schedule run ${id}`, "member1", "member")).text).toContain("Running");
    await waitFor("the run now", () => surface.transcript.find((line) => line.includes("Done.")));
    const history = await waitFor("the run's record", async () => {
      const text = (await command(link, `/schedule history ${id}`)).text;
      return text.includes("· ok ·") ? text : undefined;
    });
    expect(history).toContain(`**Last runs of \`${id}\`:**`);
    // Running now leaves the schedule as it was.
    expect((await command(link, "/schedule list")).text).toMatch(new RegExp(`\`${id}\` every weekday at 9 .*next: \\w{3}, .*09:00; last: ok`));

    expect((await command(link, `/schedule remove ${id}`, "member1", "member")).text).toContain("Removed");
    expect((await command(link, `/schedule history ${id}`)).text).toContain(`There is no task \`${id}\` here`);
  });

  it("after a restart runs a time missed within the catch-up window once, and records an older one as missed", async () => {
    test = await startTestApp({ SCHEDULE_CATCHUP_MS: String(60 * 60_000) });
    test.model.otherwise(reply.text("Caught up."));
    const now = Date.now();
    const base = { platform: "test", workspaceId: "w1", channelId: "c1", creator: "admin1", timeZone: "UTC", createdAt: now - 86_400_000 };
    // Due 10 minutes ago (an hourly task that also missed the hour before: one run, no burst), and 3 hours ago.
    await test.store.schedules.create({ ...base, id: "recent01", whenText: "every hour", cron: "0 * * * *", task: "Recent", nextDue: now - 10 * 60_000 });
    await test.store.schedules.create({ ...base, id: "stale001", whenText: "at ...", task: "Stale", nextDue: now - 3 * 3_600_000 });
    const app = await test.restart();
    const { surface } = connect(app);

    await waitFor("the caught-up run", () => surface.transcript.find((line) => line.includes("Caught up.")));
    const runs = await waitFor("both records", async () => {
      const recent = await app.store.schedules.history("recent01", 10);
      const stale = await app.store.schedules.history("stale001", 10);
      return recent[0]?.status === "ok" && stale.length === 1 ? { recent, stale } : undefined;
    });
    expect(runs.recent).toHaveLength(1);
    expect(runs.stale[0]).toMatchObject({ status: "missed", detail: "no process was up at that time" });
    expect(surface.calls.filter((call) => call.text?.startsWith("⏰"))).toHaveLength(1);
    expect(await app.store.schedules.get("recent01")).toMatchObject({ status: "active" });
    expect((await app.store.schedules.get("recent01"))?.nextDue).toBeGreaterThan(now);
    expect(await app.store.schedules.get("stale001")).toMatchObject({ status: "done" });
  });

  it("lets the model set a one-off reminder for the asker with create_reminder, which then runs in the channel", async () => {
    test = await startTestApp();
    test.model.script(
      reply.toolCalls({ name: "create_reminder", args: { when: "in 1 second", text: "check the deploy" } }),
      reply.text("I'll remind you."),
      reply.text("Time to check the deploy!"),
    );
    const { surface, link } = connect(test.app);
    await link.receive({
      platform: "test",
      workspaceId: "w1",
      channelId: "c1",
      messageId: "q1",
      isDm: false,
      actor: { id: "member1", role: "member", isBot: false },
      text: "remind me in a second to check the deploy",
      mentionsBot: true,
      attachments: [],
      isEdit: false,
      isSystem: false,
      isOwn: false,
    });
    const step = surface.calls.find((call) => call.text?.includes("create_reminder"));
    expect(step?.text).toBeDefined();
    await waitFor("the reminder's run", () => surface.transcript.find((line) => line.includes("Time to check the deploy!")));
    const header = surface.calls.find((call) => call.text?.startsWith("⏰"));
    expect(header?.text).toMatch(/^⏰ Scheduled task `[0-9a-f]{8}` by <@member1>: Remind <@member1>: check the deploy$/);
    // Recurring tasks are the command's only.
    const list = await command(link, "/schedule list");
    expect(list.text).toMatch(/in 1 second \(<#c1>\): Remind <@member1>: check the deploy, by <@member1>; next: (done|running)/);
    expect(test.model.toolsOffered(0)).toContain("create_reminder");
    expect((await command(link, "/tools disable create_reminder")).ok).toBe(true);
  });

  it("pauses a task after three failed runs in a row and tells its creator; a run its process left running is recorded interrupted", async () => {
    test = await startTestApp();
    test.model.otherwise(reply.status(500, "the model is down"));
    const { surface, link } = connect(test.app);
    const id = idIn((await command(link, "/schedule add every day at 9:00 | Summarise the news")).text);
    const history = async () => (await test!.store.schedules.history(id, 10)).filter((run) => run.status !== "running");
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await command(link, `/schedule run ${id}`)).text).toContain("Running");
      await waitFor(`failed run ${attempt}`, async () => ((await history()).length === attempt ? true : undefined));
      // Distinct due times (a run now is keyed by the time it was asked for).
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await history()).map((run) => run.status)).toEqual(["failed", "failed", "failed"]);
    await waitFor("the pause", async () => ((await test!.store.schedules.get(id))?.status === "paused" ? true : undefined));
    const told = await waitFor("the creator told", () => surface.calls.find((call) => call.text?.includes("I paused your scheduled task")));
    expect(told.text).toBe(`<@admin1> I paused your scheduled task \`${id}\`: it failed 3 times in a row. \`/schedule resume ${id}\` lets it run again.`);
    expect(told.options?.notify).toBe("admin1");

    // A process killed mid-run leaves its claim running; the next start records it interrupted, and does not run it again.
    await test.store.schedules.claim({ taskId: id, dueAt: 123, instance: "killed-process", status: "running", at: Date.now(), keepNextDue: true });
    const app = await test.restart();
    const interrupted = await waitFor("the interrupted run", async () =>
      (await app.store.schedules.history(id, 10)).find((run) => run.dueAt === 123 && run.status === "interrupted"),
    );
    expect(interrupted.detail).toBe("the process running it stopped");
  });

  it("reads WHEN in the workspace's own time zone, set by /settings timezone (validated); a channel it cannot post in pauses the task", async () => {
    test = await startTestApp();
    const surface = new RecordingSurface();
    surface.post = async () => {
      throw new Error("Unknown Channel");
    };
    const { link } = connect(test.app, surface);
    expect((await command(link, "/settings timezone Mars/Olympus")).text).toContain("is not a time zone I know");
    expect((await command(link, "/settings timezone Asia/Tokyo", "member1", "member")).ok).toBe(false);
    expect((await command(link, "/settings timezone Asia/Tokyo")).text).toContain("now in Asia/Tokyo");
    const added = await command(link, "/schedule add at 2030-01-01 09:00 | Happy new year");
    expect(added.text).toMatch(/\(once, Asia\/Tokyo\): Happy new year\nNext: Tue, 1 Jan 2030, 09:00\./);
    const id = idIn(added.text);
    expect((await test.store.schedules.get(id))?.nextDue).toBe(Date.UTC(2030, 0, 1, 0, 0));

    const run = await command(link, `/schedule run ${id}`);
    expect(run.text).toContain("Running");
    await waitFor("the pause", async () => ((await test!.store.schedules.get(id))?.status === "paused" ? true : undefined));
    const [last] = await test.store.schedules.history(id, 1);
    expect(last).toMatchObject({ status: "paused", detail: "could not post in the channel (Unknown Channel)" });
  });
});
