import { PassThrough } from "node:stream";
import { SlackAdapter } from "../../../src/platforms/slack/slack-adapter.js";
import { servicesFor } from "../../../src/start-platforms.js";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { FakeSlack } from "../../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import { SignedSlackSender } from "../../fakes/slack/signed-requests.js";
import { discordAdapter, isAnswerTo } from "../../support/discord-bot.js";
import { startBenchApp } from "./bench-app.js";
import { ANSWER, QUESTION } from "./turn-script.js";

/** One platform, driven as its users would: an event in, the answer's REST call out. */
export interface E2eDriver {
  /** Sends one question in conversation `index`; resolves with ms from sending the event to the fake receiving the answer. */
  event(index: number): Promise<number>;
  close(): Promise<void>;
}

const ANSWER_TIMEOUT_MS = 30_000;

/** Waits for answers by key, fed by the fake's call listener. */
class AnswerWaiters {
  private readonly waiting = new Map<string, (at: number, error?: Error) => void>();

  wait(key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${key} within ${ANSWER_TIMEOUT_MS} ms`)), ANSWER_TIMEOUT_MS);
      this.waiting.set(key, (at, error) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        if (error) reject(error);
        else resolve(at);
      });
    });
  }

  arrived(key: string, at: number, text: unknown): void {
    this.waiting.get(key)?.(at, text === ANSWER ? undefined : new Error(`unexpected answer: ${String(text)}`));
  }
}

/** The real discord.js Client and Discord adapter against the fake Discord: a mention in, the reply to it out. */
export async function startDiscordDriver(modelUrl: string, channels: number): Promise<E2eDriver> {
  const discord = await FakeDiscord.start();
  const channelIds = [
    discord.general.id,
    ...Array.from({ length: channels - 1 }, (_, i) => discord.world.addTextChannel(discord.guild.id, `bench-${i}`).id),
  ];
  const bench = await startBenchApp(modelUrl, { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl });
  const adapter = discordAdapter(bench.app, bench.app.logger);
  await adapter.start();
  const answers = new AnswerWaiters();
  const questions = new Map<string, Parameters<typeof isAnswerTo>[1]>();
  discord.onCall((call) => {
    const questionId = call.body?.message_reference?.message_id;
    const question = questionId && questions.get(questionId);
    if (question && isAnswerTo(call, question)) {
      questions.delete(questionId);
      answers.arrived(questionId, call.at, call.body.content);
    }
  });
  return {
    async event(index) {
      const channelId = channelIds[index % channelIds.length]!;
      const sent = performance.now();
      const question = await discord.dispatchMessage({
        author: discord.member,
        content: `${FakeDiscord.mention(discord.bot)} ${QUESTION}`,
        mentions: [discord.bot],
        channelId,
      });
      questions.set(question.id, question);
      const answered = answers.wait(question.id);
      // the answer may have arrived while the message was being registered
      const early = discord.calls.find((call) => isAnswerTo(call, question));
      if (early) answers.arrived(question.id, early.at, early.body.content);
      return (await answered) - sent;
    },
    async close() {
      await bench.app.runner.shutdown(1_000);
      await adapter.stop();
      await discord.close();
      await bench.close();
    },
  };
}

const SIGNING_SECRET = "bench-signing-secret";

/** The real Bolt App (HTTP receiver) and Slack adapter against the fake Web API: a signed app_mention in, the answer's chat.postMessage out. */
export async function startSlackDriver(modelUrl: string, channels: number): Promise<E2eDriver> {
  const slack = await FakeSlack.start();
  slack.addUser({ id: "UBENCH", name: "alice" });
  const bench = await startBenchApp(modelUrl, {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_API_URL: slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
  });
  const adapter = new SlackAdapter(servicesFor(bench.app, { streams: { input: new PassThrough(), output: new PassThrough() } }), { clientOptions: { retryConfig: { retries: 0 } }, listen: { port: 0, host: "127.0.0.1" } });
  await adapter.start();
  const sender = new SignedSlackSender(adapter.eventsUrl!, SIGNING_SECRET);
  const answers = new AnswerWaiters();
  slack.onCall((call) => {
    // the answer is the thread reply that is not a tool step (steps start with an emoji marker)
    if (call.method === "chat.postMessage" && call.params.thread_ts && call.params.text === ANSWER) {
      answers.arrived(String(call.params.thread_ts), call.at, call.params.text);
    }
  });
  return {
    async event(index) {
      const ts = slack.nextTs();
      const answered = answers.wait(ts);
      const sent = performance.now();
      const response = await sender.event(
        eventCallback(appMention({ user: "UBENCH", channel: `CBENCH${index % channels}`, ts, text: `<@${slack.botUserId}> ${QUESTION}` })),
      );
      if (response.status !== 200) throw new Error(`the Slack receiver answered ${response.status}`);
      return (await answered) - sent;
    },
    async close() {
      await bench.app.intake.idle();
      await bench.app.runner.shutdown(1_000);
      await adapter.stop();
      await slack.close();
      await bench.close();
    },
  };
}
