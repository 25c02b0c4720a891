import type { z } from "zod";
import { bool, optionalText, optionalUrl } from "../../config/fields.js";

/** Discord's environment variables. */
export const discordConfig = {
  DISCORD_TOKEN: optionalText,
  DISCORD_API_URL: optionalUrl,
  DISCORD_ALLOW_DMS: bool(true),
  DISCORD_GUILD_ID: optionalText,
};

export type DiscordConfig = z.output<z.ZodObject<typeof discordConfig>>;
