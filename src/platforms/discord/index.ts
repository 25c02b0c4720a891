import { definePlatform } from "../../contract/platform.js";
import { checkShards, discordConfig } from "./config.js";

/** Starts when DISCORD_TOKEN is set; discord.js is imported only then. */
export const discordPlatform = definePlatform({
  name: "discord",
  config: discordConfig,
  configured: (config) => config.DISCORD_TOKEN !== undefined,
  check: checkShards,
  load: () => import("./discord-adapter.js"),
});
