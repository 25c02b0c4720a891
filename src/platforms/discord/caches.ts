import { Options, SnowflakeUtil, type CacheFactory, type Channel, type SweeperOptions, type AnyThreadChannel } from "discord.js";

/*
 * What discord.js keeps of what the gateway sends. By default it keeps 200 messages in every
 * channel and every thread, and every thread, member and user it ever saw: a bot that opens a
 * thread per question keeps them all. The bot reads what it needs from the events themselves (the
 * message, its author, member and mentions) and fetches the rest when it is not cached (a channel
 * or thread, a message a question replies to), so it keeps little.
 */

/**
 * Messages kept per channel or thread. A question that replies to a message carries that message
 * along, and discord.js adds both to the cache while it reads the question: two are needed for the
 * question to find what it quotes without a fetch; one more is slack.
 */
const MESSAGES_PER_CHANNEL = 3;
/** Members and users kept per guild and in all (the bot's own always): what a message carries is read as it arrives. */
const MEMBERS_PER_GUILD = 100;
const USERS = 100;

/** A thread without a message for this long leaves the cache; a follow-up in it fetches it again. */
const THREAD_IDLE_MS = 5 * 60_000;
/** Past this many cached threads, the least recently active ones leave it too (a busy bot opens many). */
const THREADS_KEPT = 100;
/** How often threads are swept. */
const THREAD_SWEEP_INTERVAL_S = 15;

const isOwn = (entry: { id: string; client: { user: { id: string } | null } }) => entry.id === entry.client.user?.id;

/** The caches: a few messages per channel; members and users bounded; nothing of what the bot never reads. */
export function discordCaches(): CacheFactory {
  return Options.cacheWithLimits({
    MessageManager: MESSAGES_PER_CHANNEL,
    GuildMemberManager: { maxSize: MEMBERS_PER_GUILD, keepOverLimit: isOwn },
    UserManager: { maxSize: USERS, keepOverLimit: isOwn },
    ThreadMemberManager: 0,
    PresenceManager: 0,
    ReactionManager: 0,
    ReactionUserManager: 0,
    VoiceStateManager: 0,
    StageInstanceManager: 0,
    GuildScheduledEventManager: 0,
    GuildInviteManager: 0,
    GuildBanManager: 0,
    GuildEmojiManager: 0,
    BaseGuildEmojiManager: 0,
    GuildStickerManager: 0,
    AutoModerationRuleManager: 0,
    ApplicationCommandManager: 0,
    EntitlementManager: 0,
  });
}

/** Threads are swept once idle, and down to the most recently active ones when there are many. */
export function discordSweepers(): SweeperOptions {
  return { threads: { interval: THREAD_SWEEP_INTERVAL_S, filter: () => threadsToSweep(Date.now()) } };
}

/** The id of the thread's last message, or its own: a snowflake, so it orders threads by when they last saw one. */
const lastActivityId = (thread: AnyThreadChannel) => BigInt(thread.lastMessageId ?? thread.id);
const lastActivity = (thread: AnyThreadChannel) => SnowflakeUtil.timestampFrom(thread.lastMessageId ?? thread.id);

function threadsToSweep(now: number): (thread: AnyThreadChannel, id: string, channels: ReadonlyMap<string, Channel>) => boolean {
  let kept: Set<string> | undefined;
  return (thread, _id, channels) => {
    if (now - lastActivity(thread) > THREAD_IDLE_MS) return true;
    kept ??= mostRecentlyActive(channels, THREADS_KEPT);
    return !kept.has(thread.id);
  };
}

function mostRecentlyActive(channels: ReadonlyMap<string, Channel>, count: number): Set<string> {
  const threads = [...channels.values()].filter((channel) => channel.isThread());
  if (threads.length <= count) return new Set(threads.map((thread) => thread.id));
  return new Set(
    threads
      .map((thread) => ({ id: thread.id, last: lastActivityId(thread) }))
      .sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : 0))
      .slice(0, count)
      .map((thread) => thread.id),
  );
}
