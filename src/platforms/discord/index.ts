import type { Platform } from "../platform.js";
import { DiscordAdapter } from "./discord-adapter.js";

export const discordPlatform: Platform = {
  name: "discord",
  configured: (config) => config.DISCORD_TOKEN !== undefined,
  create: (app) => new DiscordAdapter(app),
};
