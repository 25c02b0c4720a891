import { REST, Routes, type APIUser } from "discord.js";
import type { Platform } from "../platform.js";
import { DiscordAdapter } from "./discord-adapter.js";

export const discordPlatform: Platform = {
  name: "discord",
  configured: (config) => config.DISCORD_TOKEN !== undefined,
  create: (app) => new DiscordAdapter(app),
  async checkCredentials(config) {
    const rest = new REST(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}).setToken(config.DISCORD_TOKEN!);
    const user = (await rest.get(Routes.user())) as APIUser;
    return `the token belongs to ${user.username} (${user.id})`;
  },
};
