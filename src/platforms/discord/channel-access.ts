import {
  ChannelType,
  DiscordAPIError,
  DiscordjsErrorCodes,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  type Client,
  type Guild,
  type GuildBasedChannel,
} from "discord.js";
import type { ChannelReadAnswer, ChannelReader } from "../../contract/channel-access.js";
import type { Logger } from "../../log.js";
import { describeDiscordError } from "./errors.js";

/** The longest one check waits for Discord (a channel or a member fetched over REST). */
const LOOKUP_TIMEOUT_MS = 5_000;

/** Discord errors that mean "no such thing here", not "Discord did not answer". */
const MISSING = new Set<number>([RESTJSONErrorCodes.UnknownChannel, RESTJSONErrorCodes.UnknownMember, RESTJSONErrorCodes.MissingAccess]);

/**
 * Whether a member may read a channel of the server they ask in: the channel's View Channel
 * permission for that member, as discord.js computes it from their roles and the channel's
 * overwrites. A channel of another server is not found (only the asker's server is looked in);
 * a thread is read as its parent channel, which the history index keeps it under.
 */
export function discordChannelAccess(client: Client, logger: Logger): ChannelReader {
  return async ({ workspaceId, userId, channel }) => {
    const guild = client.guilds.cache.get(workspaceId);
    if (!guild) return { readable: false, reason: "not-found" };
    try {
      const found = await withTimeout(findChannel(guild, channel));
      const target = found?.isThread() ? found.parent : found;
      if (!target) return { readable: false, reason: "not-found" };
      const member = guild.members.cache.get(userId) ?? (await withTimeout(guild.members.fetch(userId)));
      return target.permissionsFor(member).has(PermissionFlagsBits.ViewChannel)
        ? { readable: true, channelId: target.id, name: `#${target.name}` }
        : { readable: false, reason: "no-access" };
    } catch (error) {
      if (error instanceof DiscordAPIError && typeof error.code === "number" && MISSING.has(error.code)) return refusedFor(error.code);
      // Another server's channel, fetched by its id: discord.js refuses it as not this server's.
      if ((error as { code?: unknown }).code === DiscordjsErrorCodes.GuildChannelUnowned) return { readable: false, reason: "not-found" };
      logger.warn({ err: describeDiscordError(error), guild: workspaceId }, "could not check whether a member may read a channel");
      return { readable: false, reason: "unavailable" };
    }
  };
}

/** The channel a reference names in the server: `<#id>`, an id, or a name (`#general`, `general`) of a channel the bot sees. */
async function findChannel(guild: Guild, reference: string): Promise<GuildBasedChannel | null | undefined> {
  const id = /^<#(\d{15,25})>$/.exec(reference)?.[1] ?? /^\d{15,25}$/.exec(reference)?.[0];
  if (id) return guild.channels.cache.get(id) ?? (await guild.channels.fetch(id));
  const name = reference.replace(/^#/, "").toLowerCase();
  return guild.channels.cache.find((c) => c.name.toLowerCase() === name && (c.type === ChannelType.GuildText || c.type === ChannelType.GuildAnnouncement));
}

const refusedFor = (code: number): ChannelReadAnswer => ({
  readable: false,
  reason: code === RESTJSONErrorCodes.UnknownMember ? "no-access" : "not-found",
});

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Discord did not answer in time")), LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
