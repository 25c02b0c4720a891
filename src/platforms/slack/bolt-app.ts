import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App as BoltApp, webApi, type InstallationStore } from "@slack/bolt";
import { isDistribution, type SlackConfig } from "./config.js";
import type { Logger } from "../../log.js";
import type { PlatformServices } from "../../contract/platform.js";
import { clientFetch } from "../../net/keep-alive-fetch.js";
import { SERVER_LIMITS } from "../../net/server-limits.js";
import { boltLogger } from "./bolt-logger.js";
import { slackHttpReceiver } from "./http-receiver.js";

export type WebClientOptions = NonNullable<ConstructorParameters<typeof webApi.WebClient>[1]>;

export interface SlackConnectionOptions {
  /** Extra Web API client options (tests use `retryConfig: { retries: 0 }`). */
  clientOptions?: WebClientOptions;
  /** HTTP mode only: where to listen. Default: PORT on every interface. */
  listen?: { port: number; host?: string };
  /** HTTP mode only: more routes on the same server (health and metrics). */
  sharedRoutes?: PlatformServices<SlackConfig>["sharedRoutes"];
}

/** One workspace over Socket Mode or HTTP; or distribution mode: any number of them, over HTTP with OAuth. */
export type SlackMode = "socket" | "http" | "distribution";

/**
 * A Bolt app over Socket Mode (SLACK_APP_TOKEN set) or HTTP (SLACK_SIGNING_SECRET, Bolt's
 * /slack/events) with SLACK_BOT_TOKEN; or, in distribution mode, over HTTP with Bolt's OAuth
 * (/slack/install, /slack/oauth_redirect) and each event authorized from `installationStore`.
 */
export class SlackConnection {
  readonly bolt: BoltApp;
  readonly mode: SlackMode;
  /** Options for Web API clients, with SLACK_API_URL and the shared connection pool applied. */
  readonly clientOptions: WebClientOptions;
  private server?: Server;

  constructor(
    private readonly config: SlackConfig,
    logger: Logger,
    private readonly options: SlackConnectionOptions = {},
    installationStore?: InstallationStore,
  ) {
    const token = config.SLACK_BOT_TOKEN;
    const distribution = isDistribution(config);
    if (!token && !distribution) throw new Error("SLACK_BOT_TOKEN is not set.");
    this.clientOptions = {
      retryConfig: webApi.retryPolicies.fiveRetriesInFiveMinutes,
      // Every Web API call of every client (Bolt's and ours) shares one pool of keep-alive connections.
      fetch: clientFetch(),
      ...options.clientOptions,
      ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
    };
    // Deferred: auth.test runs in start(), where a bad token is a clear start-up error, not an unhandled rejection.
    const common = { logger: boltLogger(logger), clientOptions: { ...this.clientOptions }, deferInitialization: true };
    const shared = options.sharedRoutes;
    const customRoutes = shared?.paths.map((path) => ({
      path,
      method: ["GET"],
      handler: (req: Parameters<typeof shared.handler>[0], res: Parameters<typeof shared.handler>[1]) => void shared.handler(req, res),
    }));
    if (distribution) {
      const { SLACK_CLIENT_ID: clientId, SLACK_CLIENT_SECRET: clientSecret, SLACK_STATE_SECRET: stateSecret, SLACK_SIGNING_SECRET: signingSecret } = config;
      // The config's check names whichever is missing; this only keeps the types honest.
      if (!clientId || !clientSecret || !stateSecret || !signingSecret || !installationStore) {
        throw new Error("Slack's distribution mode needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET, SLACK_SIGNING_SECRET and SECRETS_KEY.");
      }
      this.mode = "distribution";
      const receiver = slackHttpReceiver({
        signingSecret,
        logger: common.logger,
        ...(customRoutes ? { customRoutes } : {}),
        oauth: { clientId, clientSecret, stateSecret, installationStore, clientOptions: this.clientOptions },
      });
      this.bolt = new BoltApp({ ...common, receiver });
    } else if (config.SLACK_APP_TOKEN) {
      this.mode = "socket";
      this.bolt = new BoltApp({ ...common, token, appToken: config.SLACK_APP_TOKEN, socketMode: true });
    } else {
      if (!config.SLACK_SIGNING_SECRET) {
        throw new Error("Slack needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP events at /slack/events). See docs/slack.md.");
      }
      this.mode = "http";
      // Signature and timestamp checks stay on (Bolt's default): bad, stale or future-dated requests get 401.
      const receiver = slackHttpReceiver({ signingSecret: config.SLACK_SIGNING_SECRET, logger: common.logger, ...(customRoutes ? { customRoutes } : {}) });
      this.bolt = new BoltApp({ ...common, token, receiver });
    }
  }

  async start(): Promise<void> {
    try {
      await this.bolt.init();
    } catch (error) {
      if (this.mode === "distribution") throw error;
      const code = (error as { data?: { error?: string } }).data?.error;
      throw new Error(
        code ? `Slack refused SLACK_BOT_TOKEN (auth.test: ${code}).` : `Could not reach Slack's Web API to check SLACK_BOT_TOKEN: ${(error as Error).message}`,
      );
    }
    if (this.mode === "socket") {
      await this.bolt.start();
      this.started = true;
      return;
    }
    const listen = this.options.listen ?? { port: this.config.PORT };
    // Bolt hands these to http.createServer: a request trickled in slowly is cut off in seconds.
    this.server = (await this.bolt.start(listen, SERVER_LIMITS)) as Server;
    this.started = true;
  }

  private started = false;

  async stop(): Promise<void> {
    this.started = false;
    await this.bolt.stop();
    this.server = undefined;
  }

  /** Started and not stopped; Bolt's Socket Mode client reconnects by itself in between. */
  get running(): boolean {
    return this.started;
  }

  /** HTTP mode, once started: the Events API URL. */
  get eventsUrl(): string | undefined {
    return this.serverUrl && `${this.serverUrl}/slack/events`;
  }

  /** HTTP mode, once started: the server's own address (the install page is under it in distribution mode). */
  get serverUrl(): string | undefined {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) return undefined;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    return `http://${host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host}:${address.port}`;
  }
}
