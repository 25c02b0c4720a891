import type { z } from "zod";
import { z as zod } from "zod";
import { bool, optionalText, optionalUrl, urlTemplate } from "../../config/fields.js";
import type { ConfigIssue } from "../../contract/platform.js";

/** Discord's environment variables. */
export const discordConfig = {
  DISCORD_TOKEN: optionalText,
  DISCORD_API_URL: optionalUrl,
  DISCORD_ALLOW_DMS: bool(true),
  DISCORD_GUILD_ID: optionalText,
  /**
   * The shards this process runs, to spread a big bot over hosts: "0,1" or "0-3". Unset: one shard,
   * or what discord.js's ShardingManager assigns the process.
   */
  DISCORD_SHARD_IDS: zod
    .string()
    .trim()
    .regex(/^\d+(-\d+)?(,\d+(-\d+)?)*$/, { message: 'shard ids such as "0", "0,1" or "0-3"' })
    .optional()
    .transform((text) => (text === undefined ? undefined : shardIds(text))),
  /** The number of shards of all processes together (with DISCORD_SHARD_IDS). */
  DISCORD_SHARD_COUNT: zod.coerce
    .number({ message: "a whole number greater than 0" })
    .int({ message: "a whole number greater than 0" })
    .positive({ message: "a whole number greater than 0" })
    .optional(),
  /** Discord's file host: attachments are downloaded from under this address only. */
  DISCORD_CDN_URL: urlTemplate("https://cdn.discordapp.com/"),
  /** "Sign in with Discord" on the operator's console (OAuth2): the application's client id and secret. */
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_CLIENT_SECRET: optionalText,
  /** Where Discord's OAuth2 pages and API are (/oauth2/authorize, /api/oauth2/token, /api/users/@me). */
  DISCORD_OAUTH_URL: urlTemplate("https://discord.com"),
};

export type DiscordConfig = z.output<z.ZodObject<typeof discordConfig>>;

/** "0,2-4" → [0, 2, 3, 4] (sorted, each once). */
function shardIds(text: string): number[] {
  const ids = text.split(",").flatMap((part) => {
    const [from, to = from] = part.split("-").map(Number) as [number, number?];
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  });
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The shard settings go together: ids and count both or neither, every id below the count. */
export function checkShards(config: Pick<DiscordConfig, "DISCORD_SHARD_IDS" | "DISCORD_SHARD_COUNT">): ConfigIssue[] {
  const { DISCORD_SHARD_IDS: ids, DISCORD_SHARD_COUNT: count } = config;
  // A value its own schema refused is reported already (and not parsed).
  if ((ids !== undefined && !Array.isArray(ids)) || (count !== undefined && !Number.isInteger(count))) return [];
  if (ids === undefined && count === undefined) return [];
  if (ids === undefined) return [{ variable: "DISCORD_SHARD_IDS", message: "set too when DISCORD_SHARD_COUNT is (the shards this process runs)" }];
  if (count === undefined)
    return [{ variable: "DISCORD_SHARD_COUNT", message: "set too when DISCORD_SHARD_IDS is (the number of shards of all processes together)" }];
  if (ids.length === 0 || ids.some((id) => id >= count))
    return [{ variable: "DISCORD_SHARD_IDS", message: `shard ids from 0 to ${count - 1} (DISCORD_SHARD_COUNT is ${count})` }];
  return [];
}
