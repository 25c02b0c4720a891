import { once } from "node:events";
import { Events, type Client } from "discord.js";
import type { App } from "../../app.js";
import type { Logger } from "../../log.js";
import type { PlatformAdapter } from "../platform.js";
import { createDiscordClient } from "./client.js";
import { InteractionHandler } from "./commands/interaction-handler.js";
import { describeDiscordError } from "./errors.js";
import { MessageHandler } from "./message-handler.js";

export interface DiscordAdapterOptions {
  /** Defaults to the app's logger. */
  logger?: Logger;
}

/**
 * The Discord connection: logs in over the gateway, turns mentions, bot-thread follow-ups and
 * DMs into turns, and answers slash commands.
 */
export class DiscordAdapter implements PlatformAdapter {
  readonly name = "discord";
  private client?: Client;
  private readonly logger: Logger;
  private accepting = false;

  constructor(
    private readonly app: App,
    options: DiscordAdapterOptions = {},
  ) {
    this.logger = (options.logger ?? app.logger).child({ platform: "discord" });
  }

  async start(): Promise<void> {
    const { config } = this.app;
    if (!config.DISCORD_TOKEN) throw new Error("DISCORD_TOKEN is not set");
    const client = createDiscordClient(config);
    this.client = client;
    const messages = new MessageHandler(this.app, this.logger, {
      allowDms: config.DISCORD_ALLOW_DMS,
      adminUserIds: config.BOT_ADMIN_USER_IDS,
    });
    const interactions = new InteractionHandler(this.app, this.logger, config.BOT_ADMIN_USER_IDS);

    client.on(Events.MessageCreate, (message) => this.accepting && messages.handle(message));
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
    } catch (error) {
      this.accepting = false;
      await client.destroy();
      throw new Error(`could not log in to Discord: ${describeDiscordError(error).message}`);
    }
    this.logger.info({ tag: client.user?.tag, guilds: client.guilds.cache.size }, "connected to Discord");
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
}
