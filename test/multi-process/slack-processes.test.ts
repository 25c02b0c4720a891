import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAI, type RecordedRequest } from "../fakes/fake-openai.js";
import { FakeSlack } from "../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../fakes/slack/payloads.js";
import { SignedSlackSender } from "../fakes/slack/signed-requests.js";
import { startChildBot, type ChildBot } from "../support/child-bot.js";
import { freePort } from "../support/free-port.js";
import { createTestDatabase, postgresAvailability, queryRows, type TestDatabase } from "../support/postgres.js";

/**
 * Three `npm start` processes on one PostgreSQL database behind a "load balancer" (this test,
 * sending each Slack event to one of them over HTTP): one answer per event, per-conversation
 * order and memory across processes, the per-user rate limit counted for all, and a process
 * killed mid-turn whose turn the survivors mark interrupted while they answer the rest.
 */
const availability = await postgresAvailability();
const SECRET = "multi-process-secret";
const RATE_LIMIT = 4;
const PASSWORD = "not-in-any-log";
const withPassword = (url: string) => Object.assign(new URL(url), { password: PASSWORD }).toString();
const WAITING = "waiting for an earlier turn of this conversation in another process";

/** How often a process logged that a turn waits for another process's turn. */
const waits = (bot: ChildBot) => bot.stderr().split(WAITING).length - 1;
const lastQuestion = (request: RecordedRequest): string => request.body.messages.at(-1).content;
const history = (request: RecordedRequest): string[] => request.body.messages.slice(1, -1).map((m: { content: string }) => m.content);

describe.skipIf(!availability.available)(
  availability.available
    ? "three bot processes on one PostgreSQL database"
    : `three bot processes on one PostgreSQL database (not run: ${availability.reason})`,
  () => {
    let database: TestDatabase;
    let slack: FakeSlack;
    let model: FakeOpenAI;
    let dir: string;
    const bots: ChildBot[] = [];
    const senders: SignedSlackSender[] = [];
    /** Questions whose model call waits until released (by the test). */
    const held = new Map<string, () => void>();
    const holding = new Map<string, Promise<void>>();

    const hold = (question: string) => holding.set(question, new Promise<void>((resolve) => held.set(question, resolve)));
    const release = (question: string) => held.get(question)?.();
    const modelSaw = (question: string) => model.chatRequests.filter((request) => lastQuestion(request) === question);
    const mention = (to: number, fields: { user: string; channel: string; text: string; ts?: string }, eventId?: string) => {
      const ts = fields.ts ?? slack.nextTs();
      const body = eventCallback(appMention({ user: fields.user, channel: fields.channel, ts, text: `<@${slack.botUserId}> ${fields.text}` }), { eventId });
      return { ts, body, sent: senders[to]!.event(body) };
    };
    const repliesIn = (channel: string, ts: string) => slack.thread(channel, ts).map((message) => message.text);
    const placesIn = async (channel: string) =>
      Number((await queryRows(database.url, `SELECT COUNT(*) AS n FROM turn_queue WHERE conversation_key LIKE $1`, [`%"${channel}"%`]))[0]!.n);
    const until = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; logs:\n${bots.map((bot) => bot.stderr().slice(-2_000)).join("\n---\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    beforeAll(async () => {
      database = await createTestDatabase("agent_bot_multi");
      slack = await FakeSlack.start();
      model = await FakeOpenAI.start();
      dir = mkdtempSync(join(tmpdir(), "agent-bot-multi-"));
      model.otherwise(async (request) => {
        const question = lastQuestion(request);
        await holding.get(question);
        return { kind: "message", content: `answer to ${question}` };
      });
      for (let i = 0; i < 3; i++) {
        const port = await freePort();
        senders.push(new SignedSlackSender(`http://127.0.0.1:${port}/slack/events`, SECRET));
        bots.push(
          startChildBot(
            {
              OPENAI_BASE_URL: model.url,
              OPENAI_MAX_RETRIES: "0",
              // trust authentication ignores the password; it is here to prove it is never logged
              DATABASE_URL: withPassword(database.url),
              SLACK_BOT_TOKEN: slack.botToken,
              SLACK_SIGNING_SECRET: SECRET,
              SLACK_API_URL: slack.apiUrl,
              PORT: String(port),
              INSTANCE_ID: `process-${i}`,
              INSTANCE_LEASE_MS: "1500",
              RATE_LIMIT_PER_USER: String(RATE_LIMIT),
              LOG_LEVEL: "debug",
            },
            dir,
          ),
        );
      }
      await until(() => bots.every((bot) => bot.stderr().includes("Slack events listening over HTTP")), "three processes to start", 60_000);
    }, 90_000);

    afterAll(async () => {
      for (const bot of bots) if (bot.process.exitCode === null && bot.process.signalCode === null) bot.process.kill("SIGTERM");
      await Promise.all(bots.map((bot) => bot.exited));
      await model?.close();
      await slack?.close();
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    it("answers an event delivered to two processes once", async () => {
      const first = mention(0, { user: "U1", channel: "C-dup", text: "delivered twice" }, "Ev-twice");
      const again = senders[1]!.event(first.body);
      expect((await first.sent).status).toBe(200);
      expect((await again).status).toBe(200);
      await until(() => repliesIn("C-dup", first.ts).length > 0, "the answer");
      await until(() => bots.some((bot) => bot.stderr().includes("ignored a repeated delivery of a message")), "the other process to drop its copy");
      expect(repliesIn("C-dup", first.ts)).toEqual(["answer to delivered twice"]);
      expect(modelSaw("delivered twice")).toHaveLength(1);
    });

    it("answers two messages of one conversation that reach different processes in order, the second remembering the first", async () => {
      hold("first in line");
      const first = mention(1, { user: "U2", channel: "C-order", text: "first in line" });
      await until(() => modelSaw("first in line").length === 1, "the first turn to reach the model");
      const second = mention(2, { user: "U3", channel: "C-order", text: "second in line" });
      // the second has its place behind the first, in another process: it waits until the first is answered
      await until(() => waits(bots[2]!) === 1, "the second turn to wait for the first");
      expect(await placesIn("C-order")).toBe(2);
      expect(modelSaw("second in line")).toHaveLength(0);

      release("first in line");
      await until(() => repliesIn("C-order", second.ts).length > 0, "the second answer");
      expect(repliesIn("C-order", first.ts)).toEqual(["answer to first in line"]);
      expect(repliesIn("C-order", second.ts)).toEqual(["answer to second in line"]);
      const [firstAnswer] = slack.thread("C-order", first.ts);
      const [secondAnswer] = slack.thread("C-order", second.ts);
      expect(Number(secondAnswer!.ts)).toBeGreaterThan(Number(firstAnswer!.ts));
      expect(history(modelSaw("second in line")[0]!)).toEqual(["first in line", "answer to first in line"]);
    });

    it("counts one user's turns per minute across all processes", async () => {
      const sent = Array.from({ length: RATE_LIMIT + 1 }, (_, i) => mention(i % 3, { user: "U-busy", channel: `C-rate-${i}`, text: `busy question ${i}` }));
      await until(() => sent.every((event, i) => repliesIn(`C-rate-${i}`, event.ts).length > 0), "a reply to every message");
      const replies = sent.map((event, i) => repliesIn(`C-rate-${i}`, event.ts)[0]!);
      expect(replies.filter((text) => text.startsWith("answer to busy question"))).toHaveLength(RATE_LIMIT);
      expect(replies.filter((text) => text.includes("faster than I can take them"))).toHaveLength(1);
    });

    it("goes on when a process is killed mid-turn: its turn is marked interrupted, no half exchange, the queued turn behind it runs", async () => {
      const waitedBefore = waits(bots[0]!);
      hold("doomed question");
      const doomed = mention(2, { user: "U4", channel: "C-crash", text: "doomed question" });
      await until(() => modelSaw("doomed question").length === 1, "the doomed turn to reach the model");
      const behind = mention(0, { user: "U5", channel: "C-crash", text: "queued behind it" });
      await until(() => waits(bots[0]!) === waitedBefore + 1, "the next turn to wait behind it");

      bots[2]!.process.kill("SIGKILL");
      expect((await bots[2]!.exited).signal).toBe("SIGKILL");
      // the survivors keep answering, in other conversations at once
      const meanwhile = [
        mention(0, { user: "U6", channel: "C-after-0", text: "still there 0" }),
        mention(1, { user: "U7", channel: "C-after-1", text: "still there 1" }),
      ];
      await until(() => meanwhile.every((event, i) => repliesIn(`C-after-${i}`, event.ts).length > 0), "the survivors to answer");

      // the killed process's lease runs out; a survivor marks its turn interrupted and releases its place
      await until(() => repliesIn("C-crash", behind.ts).length > 0, "the turn queued behind the killed one");
      expect(repliesIn("C-crash", behind.ts)).toEqual(["answer to queued behind it"]);
      expect(history(modelSaw("queued behind it")[0]!)).toEqual([]);
      // its asker is told, where the answer would have gone
      await until(() => repliesIn("C-crash", doomed.ts).length > 0, "the doomed turn's restart notice");
      expect(repliesIn("C-crash", doomed.ts)).toEqual(["⚠️ The bot restarted before I could finish this. Please ask again in a minute."]);
      const turns = await queryRows(database.url, `SELECT status, error FROM turns WHERE instance LIKE 'process-2:%' AND status <> 'answered'`);
      expect(turns).toEqual([{ status: "interrupted", error: "the bot stopped before this turn finished" }]);
      expect(await queryRows(database.url, `SELECT id FROM messages WHERE text = 'doomed question'`)).toEqual([]);
      expect(bots.slice(0, 2).some((bot) => bot.stderr().includes("marked turns left running by stopped bot processes as interrupted"))).toBe(true);
      release("doomed question");
      for (const bot of bots) expect(bot.stderr() + bot.stdout()).not.toContain(PASSWORD);
    });

    it("tells the asker whose answer a killed process was posting that the bot restarted, and remembers only what was shown", async () => {
      // Slack is slow to take the answer's first write (in the soak: a long 429): the process dies meanwhile. The model's
      // answer comes whole, so it is posted once it is stored (not streamed while its closing commits).
      let writing = false;
      slack.fail("chat.postMessage", { delayMs: 20_000 }, { when: (params) => params.channel === "C-unshown" && (writing = true) });
      const asked = mention(1, { user: "U8", channel: "C-unshown", text: "unshown question" });
      await until(() => writing, "the answer's first write to reach Slack", 15_000);
      // committed as answered while it is being shown
      await until(
        async () =>
          (await queryRows(database.url, `SELECT t.status FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.channel_id = 'C-unshown'`))[0]
            ?.status === "answered",
        "the answered turn's record",
        15_000,
      );
      bots[1]!.process.kill("SIGKILL");
      expect((await bots[1]!.exited).signal).toBe("SIGKILL");

      // the survivor reaps it and says so where the answer would have gone
      await until(() => repliesIn("C-unshown", asked.ts).length > 0, "the restart notice", 15_000);
      expect(repliesIn("C-unshown", asked.ts)).toEqual(["⚠️ The bot restarted before I could finish this. Please ask again in a minute."]);
      const turns = await queryRows(
        database.url,
        `SELECT t.status, t.error FROM turns t JOIN conversations c ON c.id = t.conversation_id WHERE c.channel_id = 'C-unshown'`,
      );
      expect(turns).toEqual([{ status: "interrupted", error: "the bot stopped before this turn's answer was shown" }]);
      expect(await queryRows(database.url, `SELECT id FROM messages WHERE text LIKE '%unshown question%'`)).toEqual([]);

      // the next question there does not remember an answer nobody saw
      const next = mention(0, { user: "U8", channel: "C-unshown", text: "what did I ask?" });
      await until(() => repliesIn("C-unshown", next.ts).length > 0, "the next answer");
      expect(history(modelSaw("what did I ask?")[0]!)).toEqual([]);
      expect(repliesIn("C-unshown", asked.ts)).toHaveLength(1);
    }, 60_000);
  },
);
