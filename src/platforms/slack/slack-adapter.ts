import { webApi } from "@slack/bolt";
import type { App } from "../../app.js";
import type { PlatformAdapter } from "../platform.js";
import { BotThreads, PLATFORM } from "./bot-threads.js";
import { SlackConnection, type SlackConnectionOptions, type SlackMode } from "./bolt-app.js";
import { SlackApi, type SlackApiOptions } from "./slack-api.js";
import { registerEventHandlers } from "./slack-events.js";
import { SlackUsers } from "./slack-users.js";
import { registerSlashCommands } from "./slash-commands.js";
import { TurnStarter } from "./turn-starter.js";

const REQUEST_TIMEOUT_MS = 15_000;
const QUICK_RETRIES = { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 4_000 };

export interface SlackAdapterOptions extends SlackConnectionOptions, SlackApiOptions {
  /** How long users.info answers (admin status, names) are trusted. Default 5 minutes. */
  userCacheMs?: number;
}

/** The Slack adapter: Bolt in, TurnRequests to the runner, steps and answers back as thread replies. */
export class SlackAdapter implements PlatformAdapter {
  readonly name = PLATFORM;
  private readonly connection: SlackConnection;
  private readonly starter: TurnStarter;
  private readonly logger: App["logger"];

  constructor(app: App, options: SlackAdapterOptions = {}) {
    this.connection = new SlackConnection(app.config, app.logger, options);
    // Our own calls reject rate limits so SlackApi can log them and wait out Retry-After itself,
    // and give up on an unreachable Slack within seconds rather than hold the conversation's queue.
    const client = new webApi.WebClient(app.config.SLACK_BOT_TOKEN, {
      timeout: REQUEST_TIMEOUT_MS,
      ...this.connection.clientOptions,
      retryConfig: options.clientOptions?.retryConfig ?? QUICK_RETRIES,
      rejectRateLimitedCalls: true,
      logger: this.connection.bolt.logger,
    });
    const api = new SlackApi(client, app.logger.child({ platform: PLATFORM }), options);
    const admins = new Set([...app.config.SLACK_ADMIN_USER_IDS, ...app.config.BOT_ADMIN_USER_IDS]);
    const users = new SlackUsers(api, admins, options.userCacheMs);
    const threads = new BotThreads(app.store.threads);
    this.starter = new TurnStarter(app, api, users, threads);
    registerEventHandlers(this.connection.bolt, { app, threads, starter: this.starter });
    registerSlashCommands(this.connection.bolt, { app, api, users, starter: this.starter });
    this.logger = app.logger;
  }

  get mode(): SlackMode {
    return this.connection.mode;
  }

  /** HTTP mode, once started: where Slack should send events. */
  get eventsUrl(): string | undefined {
    return this.connection.eventsUrl;
  }

  async start(): Promise<void> {
    await this.connection.start();
    this.logger.info(
      { platform: PLATFORM, mode: this.mode, ...(this.eventsUrl ? { url: this.eventsUrl } : {}) },
      this.mode === "socket" ? "Slack connected over Socket Mode" : "Slack events listening over HTTP",
    );
  }

  async stop(): Promise<void> {
    await this.connection.stop();
  }

  health(): { connected: boolean; detail?: string } {
    return { connected: this.connection.running, detail: this.mode === "socket" ? "Socket Mode" : "HTTP events" };
  }

  /** Resolves once every turn this adapter started has replied in Slack. */
  idle(): Promise<void> {
    return this.starter.idle();
  }
}
