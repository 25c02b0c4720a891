import { PassThrough } from "node:stream";
import type { App, AppOptions } from "../../src/app.js";
import type { Logger } from "../../src/log.js";
import { DiscordAdapter } from "../../src/platforms/discord/discord-adapter.js";
import { servicesFor } from "../../src/start-platforms.js";
import { FakeDiscord, type FakeDiscordOptions, type RestCall } from "../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../fakes/discord/payloads.js";
import type { FakeOpenAI } from "../fakes/fake-openai.js";
import { captureLogs, type CapturedLogs } from "./log-capture.js";
import { startTestApp, type TestApp } from "./test-app.js";

export interface DiscordBot {
  discord: FakeDiscord;
  model: FakeOpenAI;
  test: TestApp;
  app: App;
  adapter: DiscordAdapter;
  logs: CapturedLogs;
  /** Stops the bot as the process does on SIGTERM: the runner first (grace period), then the adapter. */
  stop(): Promise<void>;
  /** Stops the adapter and starts a new Client on a new app over the same database, as a process restart would. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The real Discord adapter (real discord.js Client, real app, real SQLite) against a fake Discord and a fake model. */
export async function startDiscordBot(
  env: Record<string, string> | ((discord: FakeDiscord) => Record<string, string>) = {},
  options: AppOptions = {},
  fake: FakeDiscordOptions = {},
): Promise<DiscordBot> {
  const discord = await FakeDiscord.start(fake);
  const extraEnv = typeof env === "function" ? env(discord) : env;
  const logs = captureLogs();
  const test = await startTestApp(
    { DISCORD_TOKEN: discord.token, DISCORD_API_URL: discord.apiUrl, DISCORD_CDN_URL: discord.cdn.baseUrl, ...extraEnv },
    options,
    logs.logger,
  );
  const bot: DiscordBot = {
    discord,
    model: test.model,
    test,
    app: test.app,
    logs,
    adapter: discordAdapter(test.app, logs.logger),
    async stop() {
      await bot.app.runner.shutdown(500);
      await bot.adapter.stop();
    },
    async restart() {
      await bot.stop();
      bot.app = await test.restart();
      bot.adapter = discordAdapter(bot.app, logs.logger);
      await bot.adapter.start();
    },
    async close() {
      await bot.stop();
      await discord.close();
      await test.close();
    },
  };
  await bot.adapter.start();
  return bot;
}

/** The Discord platform as `npm start` creates it, logging to `logger`. */
export function discordAdapter(app: App, logger: Logger): DiscordAdapter {
  return new DiscordAdapter({ ...servicesFor(app, { streams: { input: new PassThrough(), output: new PassThrough() } }), logger });
}

/** A message the bot posted in a channel (or edited there). */
export const isMessagePost = (call: RestCall, channelId: string): boolean => call.method === "POST" && call.path === `/channels/${channelId}/messages`;

/** The answer: the one reply to the question that may notify its author. */
export const isAnswerTo = (call: RestCall, question: MessagePayload): boolean =>
  isMessagePost(call, question.channel_id) && call.body?.message_reference?.message_id === question.id && call.body?.allowed_mentions?.replied_user === true;

export const isThreadStart = (call: RestCall, question: MessagePayload): boolean =>
  call.method === "POST" && call.path === `/channels/${question.channel_id}/messages/${question.id}/threads`;

/** Every message the bot sent or edited, by any route. */
export const isMessageWrite = (call: RestCall): boolean =>
  (call.method === "POST" || call.method === "PATCH") &&
  (/^\/channels\/\d+\/messages(\/\d+)?$/.test(call.path) || /^\/webhooks\//.test(call.path) || /\/callback$/.test(call.path));
