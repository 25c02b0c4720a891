import { test } from "vitest";
import { startDiscordBot, type DiscordBot } from "./discord-bot.js";
import { SlackHarness } from "./slack-harness.js";
import { startTestApp, type TestApp } from "./test-app.js";

export interface StartedBots {
  /** Starts the bot on a fake Discord and a fake model (see startDiscordBot); closed after the test. */
  startDiscord: (...args: Parameters<typeof startDiscordBot>) => Promise<DiscordBot>;
  /** Starts the bot on a fake Slack and a fake model (see SlackHarness.start); closed after the test. */
  startSlack: (...args: Parameters<typeof SlackHarness.start>) => Promise<SlackHarness>;
  /** Starts the app alone on a fake model (see startTestApp); closed after the test. */
  startApp: (...args: Parameters<typeof startTestApp>) => Promise<TestApp>;
}

/** Gives `start` to the test and closes, after it, whatever the test started, last first. */
async function closingAfter<T extends { close(): Promise<void> }, A extends unknown[]>(
  start: (...args: A) => Promise<T>,
  use: (start: (...args: A) => Promise<T>) => Promise<void>,
): Promise<void> {
  const started: T[] = [];
  try {
    await use(async (...args) => {
      const bot = await start(...args);
      started.push(bot);
      return bot;
    });
  } finally {
    for (const bot of started.reverse()) await bot.close();
  }
}

/**
 * `it` for tests of the whole bot on a fake platform and a fake model: the test starts what it
 * needs (`async ({ startDiscord }) => { const bot = await startDiscord(); … }`) and the fixture
 * closes it afterwards, whether the test passed or not.
 */
export const botTest = test.extend<StartedBots>({
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads what a fixture needs from its first parameter's pattern.
  startDiscord: async ({}, use) => closingAfter(startDiscordBot, use),
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  startSlack: async ({}, use) => closingAfter((...args: Parameters<typeof SlackHarness.start>) => SlackHarness.start(...args), use),
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  startApp: async ({}, use) => closingAfter(startTestApp, use),
});
