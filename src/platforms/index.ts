import { discordPlatform } from "./discord/index.js";
import type { Platform } from "./platform.js";
import { slackPlatform } from "./slack/index.js";

/** Every chat platform the bot can join; `npm start` starts each one whose credentials are set. */
export const platforms: Platform[] = [discordPlatform, slackPlatform];
