import { Client, GatewayIntentBits, Partials } from "discord.js";
import type { DiscordConfig } from "./config.js";
import { NO_PINGS } from "./allowed-mentions.js";

/**
 * The discord.js client the adapter runs on. Message Content is a privileged intent: it must be
 * switched on in the Developer Portal or the gateway refuses the login (see README, "Discord").
 */
export function createDiscordClient(config: Pick<DiscordConfig, "DISCORD_API_URL" | "DISCORD_SHARD_IDS" | "DISCORD_SHARD_COUNT">): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages],
    // DM channels are not cached before their first message; without this their messages are dropped.
    // Messages: deletions and edits of messages posted before this process started (not cached) still arrive.
    partials: [Partials.Channel, Partials.Message],
    // A safety net: every send in the adapter also sets allowed mentions explicitly.
    allowedMentions: NO_PINGS,
    // Replying to a message deleted mid-turn posts the reply without the reference instead of failing.
    failIfNotExists: false,
    rest: {
      // discord.js appends the API version (/v10) itself.
      ...(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}),
      // A rate-limited edit fails at once instead of queueing: a streamed answer sends its newer
      // text later, and the presenter waits out the limit for the edits that must happen.
      rejectOnRateLimit: (limit) => limit.method.toUpperCase() === "PATCH",
    },
    // This process's share of the shards, when they are spread over hosts. Unset, discord.js runs
    // one shard, or reads SHARDS and SHARD_COUNT that its ShardingManager gives the process.
    ...(config.DISCORD_SHARD_IDS && config.DISCORD_SHARD_COUNT ? { shards: config.DISCORD_SHARD_IDS, shardCount: config.DISCORD_SHARD_COUNT } : {}),
  });
}
