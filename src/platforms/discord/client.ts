import { Client, GatewayIntentBits, Partials, type RateLimitData } from "discord.js";
import type { DiscordConfig } from "./config.js";
import { NO_PINGS } from "./allowed-mentions.js";
import { discordCaches, discordSweepers } from "./caches.js";

/**
 * The discord.js client the adapter runs on. Message Content is a privileged intent: it must be
 * switched on in the Developer Portal or the gateway refuses the login (see docs/discord.md).
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
    // A few messages per channel, idle threads swept: see caches.ts.
    makeCache: discordCaches(),
    sweepers: discordSweepers(),
    rest: {
      // discord.js appends the API version (/v10) itself.
      ...(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}),
      rejectOnRateLimit: rejectsRateLimit,
      handlerSweepInterval: REST_HANDLER_SWEEP_MS,
    },
    // This process's share of the shards, when they are spread over hosts. Unset, discord.js runs
    // one shard, or reads SHARDS and SHARD_COUNT that its ShardingManager gives the process.
    ...(config.DISCORD_SHARD_IDS && config.DISCORD_SHARD_COUNT ? { shards: config.DISCORD_SHARD_IDS, shardCount: config.DISCORD_SHARD_COUNT } : {}),
  });
}

/**
 * How often discord.js drops its idle rate-limit handlers. It keeps one per route and channel, so a
 * bot that opens a thread per question gains one a turn (about 0.3 KB with its queue and keys), and
 * by default sweeps them once an hour: 34,000 at 9.5 turns a second. An idle handler holds no
 * limit worth keeping (one that is limited or has requests queued is not swept).
 */
const REST_HANDLER_SWEEP_MS = 60_000;

/** The longest discord.js itself waits out a rate limit, for the limits it may wait for. */
const QUEUED_WAIT_MS = 5_000;

/**
 * Which rate limits fail a call at once instead of queueing it in discord.js, where no deadline
 * reaches (a 429 with retry_after 3600 held an answer, and the channel's next turn, for an hour):
 * every limit on a channel's routes (posts, edits, threads, typing, lookups) and everything that
 * would wait long. The caller decides: the presenter waits out short limits for the writes users
 * must see, within the reply's delivery, and gives up on long ones. discord.js still waits, a few
 * seconds at most, for its own pacing of all requests (global: 50 a second) and for the replies
 * to slash commands and buttons (their interaction's routes).
 */
function rejectsRateLimit(limit: Pick<RateLimitData, "global" | "method" | "route" | "retryAfter" | "timeToReset" | "sublimitTimeout">): boolean {
  const waitMs = Math.max(limit.retryAfter, limit.timeToReset, limit.sublimitTimeout);
  if (waitMs > QUEUED_WAIT_MS || limit.method.toUpperCase() === "PATCH") return true;
  const interactionReply = limit.route.startsWith("/interactions/") || limit.route.startsWith("/webhooks/");
  return !limit.global && !interactionReply;
}
