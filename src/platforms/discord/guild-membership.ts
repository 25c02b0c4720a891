import { DiscordAPIError, RESTJSONErrorCodes, type Client, type Guild } from "discord.js";
import type { Logger } from "../../log.js";
import type { WorkspaceMembership } from "../../contract/inbound.js";

/** How long an answer from Discord (member or not) is trusted. */
const REMEMBER_MS = 5 * 60_000;
/** Answers remembered at most; the oldest go first (a Map keeps insertion order). */
const MAX_REMEMBERED = 10_000;
/**
 * Servers asked about over REST for one direct message (the member cache answers first); a
 * server past these counts as not shared, so many servers listing one user cost a bounded check.
 */
const MAX_LOOKUPS = 5;
const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * Which servers a user shares with the bot, for the ignore lists a direct message follows. Only
 * what Discord confirms counts: a server the bot is not in, a user Discord says is no member
 * there, or a lookup that fails or times out (logged) is not shared.
 */
export class GuildMembership {
  private readonly remembered = new Map<string, { member: boolean; until: number }>();

  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
  ) {}

  /** The membership check for one user's messages. */
  of(userId: string): WorkspaceMembership {
    return async (guildIds) => {
      const shared: string[] = [];
      let lookups = 0;
      for (const guildId of guildIds) {
        const guild = this.client.guilds.cache.get(guildId);
        if (!guild) continue;
        if (guild.members.cache.has(userId)) {
          shared.push(guildId);
          continue;
        }
        const key = `${guildId}:${userId}`;
        const known = this.remembered.get(key);
        if (known && known.until > Date.now()) {
          if (known.member) shared.push(guildId);
          continue;
        }
        if (lookups === MAX_LOOKUPS) continue;
        lookups++;
        const member = await this.lookUp(guild, userId);
        if (member === undefined) continue;
        this.remember(key, member);
        if (member) shared.push(guildId);
      }
      return shared;
    };
  }

  /** True or false as Discord answers; undefined when it did not (logged). */
  private async lookUp(guild: Guild, userId: string): Promise<boolean | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${LOOKUP_TIMEOUT_MS} ms`)), LOOKUP_TIMEOUT_MS);
    });
    try {
      // Not cached: the bot reads members from events, and this one may never write again.
      await Promise.race([guild.members.fetch({ user: userId, cache: false }), timeout]);
      return true;
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser)) return false;
      this.logger.warn(
        { err: error, guild: guild.id, user: userId },
        "could not tell whether a user is a member of a server (its ignore list is not applied to their DM)",
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(key: string, member: boolean): void {
    this.remembered.delete(key);
    if (this.remembered.size >= MAX_REMEMBERED) {
      const now = Date.now();
      for (const [old, entry] of this.remembered) if (entry.until <= now) this.remembered.delete(old);
      for (const old of this.remembered.keys()) {
        if (this.remembered.size < MAX_REMEMBERED * 0.9) break;
        this.remembered.delete(old);
      }
    }
    this.remembered.set(key, { member, until: Date.now() + REMEMBER_MS });
  }
}
