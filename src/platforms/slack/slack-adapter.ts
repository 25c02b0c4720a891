import { webApi } from "@slack/bolt";
import type { Logger } from "../../log.js";
import type { Actor } from "../../runner/incoming.js";
import type { PlatformLink } from "../../runner/platform-link.js";
import type { PlatformAdapter, PlatformServices } from "../platform.js";
import { registerApprovalActions } from "./approval-actions.js";
import { SlackConnection, type SlackConnectionOptions, type SlackMode } from "./bolt-app.js";
import type { SlackConfig } from "./config.js";
import { slackContent } from "./content.js";
import { incomingMessage, messageChange, permalinkOf, PLATFORM, placeOf, workspaceOf, type SlackEnvelope, type SlackPlace } from "./inbound.js";
import { SlackApi, type SlackApiOptions } from "./slack-api.js";
import { isAdminIn, SlackUsers } from "./slack-users.js";
import { commandNames, registerSlashCommands } from "./slash-commands.js";
import { SlackSurface } from "./surface.js";

const REQUEST_TIMEOUT_MS = 15_000;
const QUICK_RETRIES = { retries: 3, factor: 2, minTimeout: 500, maxTimeout: 4_000 };

export interface SlackAdapterOptions extends SlackConnectionOptions, SlackApiOptions {
  /** How long users.info answers (admin status, names) are trusted. Default 5 minutes. */
  userCacheMs?: number;
}

/**
 * The Slack adapter: Bolt in, translated for the core; the core's presenter writes back through
 * the surface. Admin status and names come from users.info, asked in arrival order by the core.
 */
export class SlackAdapter implements PlatformAdapter {
  readonly name = PLATFORM;
  private readonly connection: SlackConnection;
  private readonly logger: Logger;

  constructor(services: PlatformServices<SlackConfig>, options: SlackAdapterOptions = {}) {
    const { config } = services;
    this.logger = services.logger.child({ platform: PLATFORM });
    this.connection = new SlackConnection(config, services.logger, { sharedRoutes: services.sharedRoutes, ...options });
    // Our own calls reject rate limits so SlackApi can log them and wait out Retry-After itself,
    // and give up on an unreachable Slack within seconds rather than hold the conversation's queue.
    const client = new webApi.WebClient(config.SLACK_BOT_TOKEN, {
      timeout: REQUEST_TIMEOUT_MS,
      ...this.connection.clientOptions,
      retryConfig: options.clientOptions?.retryConfig ?? QUICK_RETRIES,
      rejectRateLimitedCalls: true,
      logger: this.connection.bolt.logger,
    });
    const api = new SlackApi(client, this.logger, options);
    const users = new SlackUsers(api, new Set([...config.SLACK_ADMIN_USER_IDS, ...services.adminUserIds]), options.userCacheMs);
    const actorOf = async (userId: string, place: SlackPlace): Promise<Actor> => {
      const person = await users.lookup(userId);
      return { id: userId, name: person.name, role: isAdminIn(person, place) ? "admin" : "member", isBot: false };
    };
    const names = commandNames(config);
    const link = services.connect({
      surface: new SlackSurface(api, { broadcastAnswers: config.SLACK_BROADCAST_ANSWER }),
      allowDms: config.SLACK_ALLOW_DMS,
      hasRoles: false,
      commandName: (group) => names[group],
      roleNames: {
        admin: "_Here, admins are the workspace's admins and owners (on Enterprise Grid, the organisation's), and anyone listed in SLACK_ADMIN_USER_IDS._",
        moderator: "",
      },
      content: slackContent(config.SLACK_FILES_URL, config.SLACK_BOT_TOKEN!, this.logger),
      messageLink: async (message) => {
        const url = await api.workspaceUrl();
        return url ? permalinkOf(url, message.channelId, message.messageId, message.threadId) : undefined;
      },
    });
    this.registerEvents(link, actorOf);
    registerSlashCommands(this.connection.bolt, { link, api, config, logger: this.logger, actorOf });
    registerApprovalActions(this.connection.bolt, { link, api, logger: this.logger, actorOf });
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
      { mode: this.mode, ...(this.eventsUrl ? { url: this.eventsUrl } : {}) },
      this.mode === "socket" ? "Slack connected over Socket Mode" : "Slack events listening over HTTP",
    );
  }

  async stop(): Promise<void> {
    await this.connection.stop();
  }

  health(): { connected: boolean; detail?: string } {
    return { connected: this.connection.running, detail: this.mode === "socket" ? "Socket Mode" : "HTTP events" };
  }

  /** Messages and mentions go to the core as they are; Bolt has acknowledged each event before this runs. */
  private registerEvents(link: PlatformLink, actorOf: (userId: string, place: SlackPlace) => Promise<Actor>): void {
    const bolt = this.connection.bolt;
    const handle = async ({ event, body, context }: { event: unknown; body: unknown; context: { botUserId?: string } }) => {
      const envelope = body as SlackEnvelope;
      const change = messageChange(event, context.botUserId);
      if (change) {
        const workspaceId = workspaceOf(placeOf(envelope, (event as { team?: unknown } | undefined)?.team));
        if ("deleted" in change) link.deleted({ platform: PLATFORM, workspaceId, channelId: change.deleted.channelId, messageIds: [change.deleted.messageId] });
        else link.edited({ platform: PLATFORM, workspaceId, ...change.edited }, change.edited.text);
        return;
      }
      const message = incomingMessage(event, envelope, context.botUserId);
      if (!message) return;
      const place = placeOf(envelope, (event as { team?: unknown } | undefined)?.team);
      void link.receive({ ...message, resolveActor: async () => ({ ...(await actorOf(message.actor.id, place)), isBot: message.actor.isBot }) });
    };
    bolt.event("app_mention", handle);
    bolt.event("message", handle);
    bolt.error(async (error) => {
      this.logger.error({ err: error }, "a Slack event handler failed");
    });
  }
}

export const create = (services: PlatformServices<SlackConfig>) => new SlackAdapter(services);

export async function checkCredentials(config: SlackConfig): Promise<string> {
  const client = new webApi.WebClient(config.SLACK_BOT_TOKEN, {
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
    retryConfig: { retries: 0 },
  });
  const auth = await client.auth.test();
  return `the token belongs to ${auth.user ?? "a bot"} in ${auth.team ?? "a workspace"}`;
}
