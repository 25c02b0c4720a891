import { definePlatform } from "../platform.js";
import { discordConfig } from "./config.js";

/** Starts when DISCORD_TOKEN is set; discord.js is imported only then. */
export const discordPlatform = definePlatform({
  name: "discord",
  config: discordConfig,
  configured: (config) => config.DISCORD_TOKEN !== undefined,
  load: () => import("./discord-adapter.js"),
});
