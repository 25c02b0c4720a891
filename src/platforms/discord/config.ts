import type { z } from "zod";
import { bool, optionalText, optionalUrl, urlTemplate } from "../../config/fields.js";

/** Discord's environment variables. */
export const discordConfig = {
  DISCORD_TOKEN: optionalText,
  DISCORD_API_URL: optionalUrl,
  DISCORD_ALLOW_DMS: bool(true),
  DISCORD_GUILD_ID: optionalText,
  /** Discord's file host: attachments are downloaded from under this address only. */
  DISCORD_CDN_URL: urlTemplate("https://cdn.discordapp.com/"),
};

export type DiscordConfig = z.output<z.ZodObject<typeof discordConfig>>;
