import { webApi } from "@slack/bolt";
import type { Logger } from "../../log.js";
import type { Actor, Role } from "../../contract/inbound.js";
import type { PlatformAdapter, PlatformServices } from "../../contract/platform.js";
import { registerApprovalActions } from "./approval-actions.js";
import { registerFeedbackActions } from "./feedback-actions.js";
import { registerAppHome } from "./app-home.js";
import { AssistantThreads } from "./assistant-threads.js";
import { slackChannelAccess } from "./channel-access.js";
import { slackChannelHistory } from "./channel-history.js";
import { SlackConnection, type SlackConnectionOptions, type SlackMode } from "./bolt-app.js";
import { isDistribution, type SlackConfig } from "./config.js";
import { slackContent } from "./content.js";
import { incomingMessage, messageChange, permalinkOf, PLATFORM, placeOf, workspaceOf, type SlackEnvelope, type SlackPlace } from "./inbound.js";
import { installationKey, SlackInstallationStore } from "./installation-store.js";
import { SlackApi, type SlackApiOptions } from "./slack-api.js";
import { isAdminIn, SlackUsers } from "./slack-users.js";
import { commandNames, registerSlashCommands } from "./slash-commands.js";
import { SlackSurface } from "./surface.js";
import { type SlackContext, type WorkspaceSession, WorkspaceSessions } from "./workspace-sessions.js";

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
    const distribution = isDistribution(config);
    if (distribution && !services.installations)
      throw new Error("Slack's distribution mode needs SECRETS_KEY: installations' tokens are stored encrypted with it.");
    const workspaces = services.workspaces;
    this.workspaces = workspaces;
    this.installations =
      services.installations && new SlackInstallationStore(services.installations, async (workspaceId) => workspaces?.returned(PLATFORM, workspaceId));
    this.connection = new SlackConnection(config, services.logger, { sharedRoutes: services.sharedRoutes, ...options }, this.installations);
    const admins = new Set([...config.SLACK_ADMIN_USER_IDS, ...services.adminUserIds]);
    const names = commandNames(config);
    const session = (token: string): WorkspaceSession => {
      // Our own calls reject rate limits so SlackApi can log them and wait out Retry-After itself,
      // and give up on an unreachable Slack within seconds rather than hold the conversation's queue.
      const client = new webApi.WebClient(token, {
        timeout: REQUEST_TIMEOUT_MS,
        ...this.connection.clientOptions,
        retryConfig: options.clientOptions?.retryConfig ?? QUICK_RETRIES,
        rejectRateLimitedCalls: true,
        logger: this.connection.bolt.logger,
      });
      const api = new SlackApi(client, this.logger, options);
      const users = new SlackUsers(api, admins, options.userCacheMs);
      const link = services.connect({
        surface: new SlackSurface(api, { broadcastAnswers: config.SLACK_BROADCAST_ANSWER }),
        allowDms: config.SLACK_ALLOW_DMS,
        hasRoles: false,
        commandName: (group) => names[group],
        roleNames: {
          admin: "_Here, admins are the workspace's admins and owners (on Enterprise Grid, the organisation's), and anyone listed in SLACK_ADMIN_USER_IDS._",
          moderator: "",
        },
        content: slackContent(config.SLACK_FILES_URL, token, this.logger),
        messageLink: async (message) => {
          const url = await api.workspaceUrl();
          return url ? permalinkOf(url, message.channelId, message.messageId, message.threadId) : undefined;
        },
        readableChannel: slackChannelAccess(api),
        channelHistory: slackChannelHistory(api, async (userId) => (await users.lookup(userId)).name),
      });
      const actorOf = async (userId: string, place: SlackPlace): Promise<Actor> => {
        const person = await users.lookup(userId);
        return { id: userId, name: person.name, role: isAdminIn(person, place) ? "admin" : "member", isBot: false };
      };
      const roleIn = async (userId: string, place: SlackPlace): Promise<Role | undefined> => {
        const person = await users.lookup(userId);
        const belongs = place.enterpriseId !== undefined ? person.enterprise?.id === place.enterpriseId : person.teamId === place.teamId;
        if (!belongs && !person.listed) return undefined;
        return isAdminIn(person, place) ? "admin" : "member";
      };
      return { api, link, actorOf, roleIn };
    };
    if (distribution) {
      const sessions = new WorkspaceSessions(session);
      this.sessions = sessions;
      this.sessionOf = (context) => {
        const key = installationKey(context);
        return key && context.botToken ? sessions.get(key, context.botToken) : undefined;
      };
    } else {
      const only = session(config.SLACK_BOT_TOKEN!);
      this.single = only;
      this.sessionOf = () => only;
    }
    this.assistant = new AssistantThreads({ logger: this.logger, sessionOf: this.sessionOf });
    this.registerEvents();
    registerSlashCommands(this.connection.bolt, { config, logger: this.logger, sessionOf: this.sessionOf });
    registerApprovalActions(this.connection.bolt, { logger: this.logger, sessionOf: this.sessionOf });
    registerFeedbackActions(this.connection.bolt, { logger: this.logger, sessionOf: this.sessionOf });
    registerAppHome(this.connection.bolt, { logger: this.logger, sessionOf: this.sessionOf });
    this.assistant.register(this.connection.bolt);
  }

  /**
   * A person's role in a workspace (the bot's workspace ids: a team's, or on Enterprise Grid the
   * organisation's, whose ids start with E), looked up with that workspace's own token.
   */
  async memberRole(workspaceId: string, userId: string): Promise<Role | undefined> {
    const place: SlackPlace = workspaceId.startsWith("E") ? { enterpriseId: workspaceId } : { teamId: workspaceId };
    if (!this.sessions || !this.installations) return this.single?.roleIn(userId, place);
    const query = { teamId: place.teamId, enterpriseId: place.enterpriseId, isEnterpriseInstall: place.enterpriseId !== undefined };
    const key = installationKey(query);
    const installation = await this.installations.fetchInstallation(query as Parameters<SlackInstallationStore["fetchInstallation"]>[0]).catch(() => undefined);
    const token = installation?.bot?.token;
    return key && token ? this.sessions.get(key, token).roleIn(userId, place) : undefined;
  }

  private single?: WorkspaceSession;

  /** The session a request's workspace is served by; undefined when Bolt authorized it with no token. */
  private readonly sessionOf: (context: SlackContext) => WorkspaceSession | undefined;
  private readonly sessions?: WorkspaceSessions;
  private readonly installations?: SlackInstallationStore;
  private readonly workspaces?: PlatformServices<SlackConfig>["workspaces"];
  private readonly assistant: AssistantThreads;

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

  /** HTTP mode, once started: the server's own address. */
  get serverUrl(): string | undefined {
    return this.connection.serverUrl;
  }

  /** Messages and mentions go to the core as they are; Bolt has acknowledged each event before this runs. */
  private registerEvents(): void {
    const bolt = this.connection.bolt;
    const handle = async ({ event, body, context }: { event: unknown; body: unknown; context: SlackContext & { botUserId?: string } }) => {
      const envelope = body as SlackEnvelope;
      const change = messageChange(event, context.botUserId);
      const message = change ? undefined : incomingMessage(event, envelope, context.botUserId);
      if (!change && !message) return;
      const session = this.sessionOf(context);
      if (!session) return this.logger.warn({ team: context.teamId, enterprise: context.enterpriseId }, "a Slack event came without a bot token; ignored");
      if (change) {
        const workspaceId = workspaceOf(placeOf(envelope, (event as { team?: unknown } | undefined)?.team));
        if ("deleted" in change)
          session.link.deleted({ platform: PLATFORM, workspaceId, channelId: change.deleted.channelId, messageIds: [change.deleted.messageId] });
        else session.link.edited({ platform: PLATFORM, workspaceId, ...change.edited }, change.edited.text);
        return;
      }
      if (!message) return;
      if (message.isDm && message.threadId) this.assistant.titleFrom(session, message.channelId, message.threadId, message.text);
      const place = placeOf(envelope, (event as { team?: unknown } | undefined)?.team);
      void session.link.receive({
        ...message,
        resolveActor: async () => ({ ...(await session.actorOf(message.actor.id, place)), isBot: message.actor.isBot }),
      });
    };
    bolt.event("app_mention", handle);
    bolt.event("message", handle);
    // Bolt skips authorize for these two: the tokens are gone already.
    bolt.event("app_uninstalled", ({ body, context }) => this.uninstalled(body, context, "app_uninstalled"));
    bolt.event("tokens_revoked", async ({ event, body, context }) => {
      // Only the bot's tokens matter: a user token revoked leaves the bot working.
      if ((event.tokens.bot ?? []).length > 0) await this.uninstalled(body, context, "tokens_revoked");
    });
    bolt.error(async (error) => {
      this.logger.error({ err: error }, "a Slack event handler failed");
    });
  }

  /** Distribution mode: the workspace's installation (its tokens) is deleted at once, and its session with it. */
  private async uninstalled(body: unknown, context: SlackContext, why: string): Promise<void> {
    if (!this.installations || !this.sessions) return;
    const place = placeOf(body as SlackEnvelope);
    const isEnterpriseInstall = context.isEnterpriseInstall === true;
    const where = { teamId: place.teamId, enterpriseId: place.enterpriseId, isEnterpriseInstall };
    const key = installationKey(where);
    if (!key) return;
    await this.installations.deleteInstallation(where as Parameters<SlackInstallationStore["deleteInstallation"]>[0]);
    this.sessions.drop(key);
    this.logger.info({ installation: key, event: why }, "the app was uninstalled from a Slack workspace; its tokens are deleted");
    // What the bot keeps is the organisation's on Enterprise Grid: one workspace of it leaving
    // (not the org-wide install) leaves the others using it, so nothing of it is purged.
    if (place.enterpriseId && !isEnterpriseInstall) return;
    try {
      await this.workspaces?.left(PLATFORM, workspaceOf(place), why);
    } catch (error) {
      this.logger.warn({ err: error, installation: key }, "could not record that the app left a Slack workspace; its data is not purged");
    }
  }
}

export const create = (services: PlatformServices<SlackConfig>) => new SlackAdapter(services);

export async function checkCredentials(config: SlackConfig): Promise<string> {
  const client = new webApi.WebClient(config.SLACK_BOT_TOKEN, {
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
    retryConfig: { retries: 0 },
  });
  if (isDistribution(config)) return checkClient(client, config);
  const auth = await client.auth.test();
  return `the token belongs to ${auth.user ?? "a bot"} in ${auth.team ?? "a workspace"}`;
}

/**
 * Distribution mode has no token of its own: the client's id and secret are checked by exchanging
 * a code that cannot be valid. Slack refuses the code (invalid_code) only once the client passed.
 */
async function checkClient(client: InstanceType<typeof webApi.WebClient>, config: SlackConfig): Promise<string> {
  try {
    await client.oauth.v2.access({ client_id: config.SLACK_CLIENT_ID!, client_secret: config.SLACK_CLIENT_SECRET!, code: "agent-bot-doctor-check" });
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    if (code === "invalid_code" || code === "invalid_grant_type") return "distribution mode: Slack accepts SLACK_CLIENT_ID and SLACK_CLIENT_SECRET";
    throw error;
  }
  return "distribution mode: Slack accepts SLACK_CLIENT_ID and SLACK_CLIENT_SECRET";
}
