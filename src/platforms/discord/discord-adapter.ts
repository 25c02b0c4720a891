import { once } from "node:events";
import { discordChannelAccess } from "./channel-access.js";
import { discordChannelHistory } from "./channel-history.js";
import { Events, REST, Routes, type APIUser, type Client, type Message, type PartialMessage } from "discord.js";
import type { Logger } from "../../log.js";
import type { Role } from "../../contract/inbound.js";
import type { PlatformLink } from "../../contract/link.js";
import type { PlatformAdapter, PlatformServices } from "../../contract/platform.js";
import { createDiscordClient } from "./client.js";
import { InteractionHandler } from "./commands/interaction-handler.js";
import type { DiscordConfig } from "./config.js";
import { discordContent } from "./content.js";
import { describeDiscordError } from "./errors.js";
import { GuildMembership } from "./guild-membership.js";
import { DM_WORKSPACE, incomingMessage, PLATFORM } from "./inbound.js";
import { KnownChannels } from "./known-channels.js";
import { ROLE_NAMES, roleOf } from "./permissions.js";
import { DiscordSurface } from "./surface.js";

/**
 * The Discord connection: logs in over the gateway and translates. Messages go to the core as
 * they are (it decides which are questions for the bot); slash commands are read through the
 * core's command catalog; the core's presenter writes back through the surface.
 */
export class DiscordAdapter implements PlatformAdapter {
  readonly name = "discord";
  private client?: Client;
  private membership?: GuildMembership;
  private readonly logger: Logger;
  private accepting = false;
  private channels!: KnownChannels;

  constructor(private readonly services: PlatformServices<DiscordConfig>) {
    this.logger = services.logger.child({ platform: "discord" });
  }

  async start(): Promise<void> {
    const { config, adminUserIds } = this.services;
    if (!config.DISCORD_TOKEN) throw new Error("DISCORD_TOKEN is not set");
    const client = createDiscordClient(config);
    this.client = client;
    this.membership = new GuildMembership(client, this.logger);
    this.channels = new KnownChannels(client, this.logger);
    let markConnected!: () => void;
    const connected = new Promise<void>((resolve) => (markConnected = resolve));
    const link = this.services.connect({
      surface: new DiscordSurface(client, this.logger),
      allowDms: config.DISCORD_ALLOW_DMS,
      hasRoles: true,
      commandName: (group) => `/${group}`,
      roleNames: ROLE_NAMES,
      content: discordContent(client, config.DISCORD_CDN_URL),
      messageLink: async (message) => jumpUrl(message.isDm ? "@me" : message.workspaceId, message.channelId, message.messageId),
      readableChannel: discordChannelAccess(client, this.logger),
      channelHistory: { ...discordChannelHistory(client), ready: connected },
    });
    const interactions = new InteractionHandler(link, this.logger, adminUserIds);

    client.on(Events.MessageCreate, (message) => this.accepting && this.receive(link, message));
    client.on(Events.MessageDelete, (message) => this.accepting && this.deleted(link, message.guildId, message.channelId, [message.id]));
    client.on(Events.MessageBulkDelete, (messages, channel) => this.accepting && this.deleted(link, channel.guildId, channel.id, [...messages.keys()]));
    client.on(Events.MessageUpdate, (_old, message) => this.accepting && this.edited(link, message));
    client.on(Events.InteractionCreate, (interaction) => this.accepting && interactions.handle(interaction));
    client.on(Events.Error, (error) => this.logger.error({ err: describeDiscordError(error) }, "Discord client error"));
    client.on(Events.Warn, (message) => this.logger.warn({ detail: message }, "Discord client warning"));
    client.on(Events.ShardDisconnect, (event) => this.logger.warn({ code: event.code }, "Discord gateway disconnected"));
    client.on(Events.ShardReconnecting, () => this.accepting && this.logger.info("reconnecting to the Discord gateway"));

    const ready = once(client, Events.ClientReady);
    // discord.js holds gateway events back until it is ready, so nothing is missed by accepting now.
    this.accepting = true;
    try {
      await client.login(config.DISCORD_TOKEN);
      await ready;
      markConnected();
    } catch (error) {
      this.accepting = false;
      await client.destroy();
      throw new Error(`could not log in to Discord: ${describeDiscordError(error).message}`);
    }
    this.logger.info(
      { tag: client.user?.tag, guilds: client.guilds.cache.size, shards: client.options.shards, shardCount: client.options.shardCount },
      "connected to Discord",
    );
  }

  /** The member's role by the permissions discord.js computes for them in the guild (Manage Server: admin), as the commands do. */
  async memberRole(guildId: string, userId: string): Promise<Role | undefined> {
    const guild = this.client?.guilds.cache.get(guildId);
    const member = await guild?.members.fetch(userId).catch(() => undefined);
    return member ? roleOf(userId, member.permissions, this.services.adminUserIds) : undefined;
  }

  /**
   * Closes the gateway. The process shuts the runner down first, so running turns can still
   * answer (or tell their users the bot restarted) while Discord is reachable.
   */
  async stop(): Promise<void> {
    this.accepting = false;
    await this.client?.destroy();
    this.client = undefined;
    this.logger.info("disconnected from Discord");
  }

  health(): { connected: boolean; detail?: string } {
    if (!this.client) return { connected: false, detail: "not started" };
    return this.client.isReady() ? { connected: true, detail: `${this.client.guilds.cache.size} guilds` } : { connected: false, detail: "gateway not ready" };
  }

  /** Deleted messages (one, or a moderator's bulk delete): the core removes their text everywhere. */
  private deleted(link: PlatformLink, guildId: string | null, channelId: string, messageIds: string[]): void {
    link.deleted({ platform: PLATFORM, workspaceId: guildId ?? DM_WORKSPACE, channelId, messageIds });
  }

  /** An edit: the core updates the indexed text. Only edits that carry the content (not embeds resolving) count. */
  private edited(link: PlatformLink, message: Message | PartialMessage): void {
    if (message.partial || message.author.id === message.client.user.id || message.editedTimestamp === null) return;
    try {
      const incoming = incomingMessage(message, this.services.adminUserIds);
      link.edited({ platform: PLATFORM, workspaceId: incoming.workspaceId, channelId: message.channelId, messageId: message.id }, incoming.text);
    } catch (error) {
      this.logger.warn({ err: error, messageId: message.id }, "could not read an edited Discord message");
    }
  }

  private receive(link: PlatformLink, message: Message): void {
    // The core ignores the bot's own messages before anything else, and they are most of what the
    // gateway sends during a turn (each step and answer comes back as a message): reading one
    // (permissions, mentions, files) would be wasted.
    if (message.author.id === message.client.user.id) return;
    this.channels.whenKnown(message, () => this.translate(link, message));
  }

  private translate(link: PlatformLink, message: Message): void {
    let incoming;
    try {
      incoming = incomingMessage(message, this.services.adminUserIds);
    } catch (error) {
      this.logger.warn({ err: error, messageId: message.id }, "could not read a Discord message");
      return;
    }
    // A DM follows the ignore lists of the servers its sender shares with the bot.
    const membership = this.membership;
    void link.receive(incoming.isDm && membership ? { ...incoming, memberOf: membership.of(incoming.actor.id) } : incoming);
  }
}

/** A message's jump URL: the server (or @me for direct messages), the channel (a thread's own id), the message. */
const jumpUrl = (guild: string, channelId: string, messageId: string) => `https://discord.com/channels/${guild}/${channelId}/${messageId}`;

export const create = (services: PlatformServices<DiscordConfig>) => new DiscordAdapter(services);

export async function checkCredentials(config: DiscordConfig): Promise<string> {
  const rest = new REST(config.DISCORD_API_URL ? { api: config.DISCORD_API_URL } : {}).setToken(config.DISCORD_TOKEN!);
  const user = (await rest.get(Routes.user())) as APIUser;
  return `the token belongs to ${user.username} (${user.id})`;
}
