import { PassThrough } from "node:stream";
import { REST, Routes } from "discord.js";
import { webApi } from "@slack/bolt";
import { SlackAdapter } from "../../../src/platforms/slack/slack-adapter.js";
import { servicesFor } from "../../../src/start-platforms.js";
import { FakeDiscord } from "../../fakes/discord/fake-discord.js";
import { FakeOpenAI, reply } from "../../fakes/fake-openai.js";
import { FakeSlack } from "../../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import { SignedSlackSender } from "../../fakes/slack/signed-requests.js";
import { discordAdapter, isAnswerTo } from "../../support/discord-bot.js";
import { startBenchApp } from "./bench-app.js";

/**
 * First visible text, through the real discord.js Client and Bolt App against their fakes and a
 * streaming fake model in this process (one clock for all): from the model writing its first
 * text chunk to the platform receiving the call that shows it. The rest of the answer follows a
 * while later, so the first text is all the call can hold.
 */
export interface FirstTextDriver {
  /** One question; resolves with ms from the model's first text to the platform's call. */
  sample(): Promise<number>;
  /** One call through the same library against the same fake, for comparison. */
  platformCall(): Promise<number>;
  close(): Promise<void>;
}

const STREAMED = () => reply.streamed(["Streaming ", "shows the ", "first words ", "at once."], { delayMs: 60 });
const firstTextAt = (model: FakeOpenAI) => model.chatRequests.at(-1)!.chunksAt[1]!;

export async function discordFirstText(): Promise<FirstTextDriver> {
  const model = await FakeOpenAI.start();
  model.otherwise(STREAMED());
  const discord = await FakeDiscord.start();
  const bench = await startBenchApp(model.url, { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, STREAM_ANSWERS: "true" });
  const adapter = discordAdapter(bench.app, bench.app.logger);
  await adapter.start();
  const rest = new REST({ api: discord.apiUrl }).setToken(discord.token);
  return {
    async sample() {
      const question = await discord.dispatchMessage({
        author: discord.member,
        content: `${FakeDiscord.mention(discord.bot)} stream`,
        mentions: [discord.bot],
      });
      const shown = await discord.waitFor((call) => isAnswerTo(call, question), 30_000);
      await bench.app.intake.idle();
      return shown.at - firstTextAt(model);
    },
    async platformCall() {
      const started = performance.now();
      await rest.post(Routes.channelMessages(discord.general.id), { body: { content: "a call", allowed_mentions: { parse: [] } } });
      return performance.now() - started;
    },
    async close() {
      await bench.app.runner.shutdown(1_000);
      await adapter.stop();
      await discord.close();
      await model.close();
      await bench.close();
    },
  };
}

const SIGNING_SECRET = "bench-signing-secret";

export async function slackFirstText(): Promise<FirstTextDriver> {
  const model = await FakeOpenAI.start();
  model.otherwise(STREAMED());
  const slack = await FakeSlack.start();
  slack.addUser({ id: "UBENCH", name: "alice" });
  const bench = await startBenchApp(model.url, {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_API_URL: slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    STREAM_ANSWERS: "true",
  });
  const services = servicesFor(bench.app, { streams: { input: new PassThrough(), output: new PassThrough() } });
  const adapter = new SlackAdapter(services, { clientOptions: { retryConfig: { retries: 0 } }, listen: { port: 0, host: "127.0.0.1" } });
  await adapter.start();
  const sender = new SignedSlackSender(adapter.eventsUrl!, SIGNING_SECRET);
  const client = new webApi.WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  return {
    async sample() {
      const ts = slack.nextTs();
      const from = slack.calls.length;
      const response = await sender.event(eventCallback(appMention({ user: "UBENCH", channel: "CBENCH", ts, text: `<@${slack.botUserId}> stream` })));
      if (response.status !== 200) throw new Error(`the Slack receiver answered ${response.status}`);
      const shown = await slack.waitFor(
        () => slack.calls.slice(from).find((call) => call.method === "chat.startStream" && JSON.stringify(call.params.chunks ?? "").includes("markdown_text")),
        { timeoutMs: 30_000, what: "the stream's first text" },
      );
      await bench.app.intake.idle();
      return shown.at - firstTextAt(model);
    },
    async platformCall() {
      const started = performance.now();
      await client.chat.postMessage({ channel: "CBENCH", text: "a call" });
      return performance.now() - started;
    },
    async close() {
      await bench.app.intake.idle();
      await bench.app.runner.shutdown(1_000);
      await adapter.stop();
      await slack.close();
      await model.close();
      await bench.close();
    },
  };
}
