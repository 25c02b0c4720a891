import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../support/free-port.js";
import { benchBotSettings } from "./bench-settings.js";
import type { PlatformFakes } from "./platform-fakes.js";
import { startProductionBot, type ProductionBot } from "./production-bot.js";

const SIGNING_SECRET = "bench-signing-secret";

export interface BotOnFakes {
  bot: ProductionBot;
  /** Where its /healthz and /metrics answer. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The bot started as production starts it, with Discord and Slack both configured against the
 * fakes (Slack over HTTP events, health on the same port), ready once /healthz says both are
 * connected; the fakes are then told where the bot's Slack receiver listens.
 */
export async function startBotOnFakes(modelUrl: string, fakes: PlatformFakes, env: Record<string, string> = {}): Promise<BotOnFakes> {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-start-"));
  const port = await freePort();
  const bot = startProductionBot({
    ...benchBotSettings(modelUrl, dir),
    DISCORD_TOKEN: fakes.ready.discord.token,
    DISCORD_API_URL: fakes.ready.discord.apiUrl,
    SLACK_BOT_TOKEN: fakes.ready.slack.botToken,
    SLACK_API_URL: fakes.ready.slack.apiUrl,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    PORT: String(port),
    HEALTH_PORT: String(port),
    ...env,
  });
  try {
    await bot.waitHealthy(`http://127.0.0.1:${port}/healthz`);
    await fakes.slackTarget(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET);
  } catch (error) {
    await bot.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    bot,
    origin: `http://127.0.0.1:${port}`,
    async close() {
      await bot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
