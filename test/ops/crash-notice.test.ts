import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeOpenAI, type RecordedRequest } from "../fakes/fake-openai.js";
import { FakeSlack } from "../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../fakes/slack/payloads.js";
import { SignedSlackSender } from "../fakes/slack/signed-requests.js";
import { startChildBot, type ChildBot } from "../support/child-bot.js";
import { freePort } from "../support/free-port.js";

/**
 * One `npm start` process on SQLite, killed while Slack is slow to take its answer (the turn is
 * recorded answered, its answer not shown). The restarted process tells the asker, in the
 * question's thread, that the bot restarted before finishing, and does not remember the answer.
 */
const SECRET = "crash-notice-secret";
const RESTARTED = "⚠️ The bot restarted before I could finish this. Please ask again in a minute.";
const lastQuestion = (recorded: RecordedRequest): string => recorded.body.messages.at(-1).content;
const history = (recorded: RecordedRequest): string[] => recorded.body.messages.slice(1, -1).map((m: { content: string }) => m.content);

describe("a bot killed while its answer is being shown, on SQLite", () => {
  let slack: FakeSlack | undefined;
  let model: FakeOpenAI | undefined;
  let dir: string | undefined;
  const bots: ChildBot[] = [];
  afterEach(async () => {
    for (const bot of bots) if (bot.process.exitCode === null && bot.process.signalCode === null) bot.process.kill("SIGTERM");
    await Promise.all(bots.map((bot) => bot.exited));
    bots.length = 0;
    await model?.close();
    await slack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  const until = async (condition: () => boolean, what: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; logs:\n${bots.map((bot) => bot.stderr().slice(-3_000)).join("\n---\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("tells the asker after the restart and remembers only what was shown", async () => {
    slack = await FakeSlack.start();
    model = await FakeOpenAI.start();
    model.otherwise((recorded) => ({ kind: "message", content: `answer to ${lastQuestion(recorded)}` }));
    dir = mkdtempSync(join(tmpdir(), "agent-bot-crash-notice-"));
    const port = await freePort();
    const sender = new SignedSlackSender(`http://127.0.0.1:${port}/slack/events`, SECRET);
    const env = {
      OPENAI_BASE_URL: model.url,
      OPENAI_MAX_RETRIES: "0",
      DATABASE_PATH: join(dir, "bot.sqlite"),
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: String(port),
      INSTANCE_LEASE_MS: "1500",
    };
    const start = async () => {
      const bot = startChildBot(env, dir!);
      bots.push(bot);
      await until(() => bot.stderr().includes("Slack events listening over HTTP"), "the bot to start", 60_000);
      return bot;
    };
    const mention = (text: string) => {
      const ts = slack!.nextTs();
      void sender.event(eventCallback(appMention({ user: "U1", channel: "C1", ts, text: `<@${slack!.botUserId}> ${text}` })));
      return ts;
    };
    const repliesIn = (ts: string) => slack!.thread("C1", ts).map((message) => message.text);
    const turns = () => {
      const db = new Database(join(dir!, "bot.sqlite"), { readonly: true });
      try {
        return db.prepare("SELECT status, error FROM turns ORDER BY started_at").all();
      } finally {
        db.close();
      }
    };

    const first = await start();
    // Slack holds the answer's first write: the turn is recorded answered, nothing is shown yet
    let writing = false;
    for (const method of ["chat.startStream", "chat.postMessage"]) slack.fail(method, { delayMs: 20_000 }, { when: () => (writing = true) });
    const asked = mention("never shown");
    await until(() => writing && turns().length === 1 && (turns()[0] as { status: string }).status === "answered", "the answer to be recorded and on its way");
    first.process.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    await start();
    await until(() => repliesIn(asked).length > 0, "the restart notice");
    expect(repliesIn(asked)).toEqual([RESTARTED]);
    expect(turns()).toEqual([{ status: "interrupted", error: "the bot stopped before this turn's answer was shown" }]);

    const next = mention("what did I ask?");
    await until(() => repliesIn(next).length > 0, "the next answer");
    expect(repliesIn(next)).toEqual(["answer to what did I ask?"]);
    expect(history(model.chatRequests.find((recorded) => lastQuestion(recorded) === "what did I ask?")!)).toEqual([]);
  }, 120_000);
});
