import type { IncomingMessage, ServerResponse } from "node:http";
import { HTTPReceiver, type InstallationStore, type InstallProviderOptions, type Logger as BoltLogger } from "@slack/bolt";
import { BOT_SCOPES } from "./scopes.js";

/**
 * How far ahead of this clock a request's x-slack-request-timestamp may be. Bolt refuses requests
 * over five minutes old but never looks at the other side, so a signed request captured once
 * could carry a future timestamp and be replayed for as long as that lasts. Slack's guidance is a
 * window of a minute or so; clocks synchronised by NTP are well within it.
 */
const MAX_AHEAD_SECONDS = 60;

export interface SlackHttpReceiverOptions {
  signingSecret: string;
  customRoutes?: ConstructorParameters<typeof HTTPReceiver>[0]["customRoutes"];
  logger: BoltLogger;
  /** Distribution mode: "Add to Slack" at /slack/install, the OAuth redirect at /slack/oauth_redirect. */
  oauth?: SlackOAuthOptions;
}

interface SlackOAuthOptions {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installationStore: InstallationStore;
  /** The installer's Web API calls (oauth.v2.access, auth.test): SLACK_API_URL and the shared pool. */
  clientOptions: NonNullable<InstallProviderOptions["clientOptions"]>;
}

/**
 * Bolt's own HTTP receiver (signature and staleness checks on, events at /slack/events), with
 * requests dated more than a minute ahead refused with 401 before Bolt reads them.
 */
export function slackHttpReceiver({ signingSecret, customRoutes, logger, oauth }: SlackHttpReceiverOptions): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret,
    processBeforeResponse: false,
    logger,
    ...(customRoutes ? { customRoutes } : {}),
    ...(oauth ? oauthOptions(oauth) : {}),
  });
  const verifying = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const ahead = secondsAhead(req);
    if (ahead > MAX_AHEAD_SECONDS) {
      logger.warn(`Refused a Slack request dated ${ahead} s ahead of this clock (more than ${MAX_AHEAD_SECONDS} s; check the clock if this repeats)`);
      res.writeHead(401);
      res.end();
      return;
    }
    verifying(req, res);
  };
  return receiver;
}

/**
 * Bolt's OAuth support (@slack/oauth's InstallProvider): the install page sets a signed state in
 * a cookie, the redirect checks it, exchanges the code (oauth.v2.access) and stores the
 * installation in our store. Events are then authorized from the store, which also refreshes
 * rotating tokens that expire within two hours (and stores them again).
 */
function oauthOptions(oauth: SlackOAuthOptions): Partial<ConstructorParameters<typeof HTTPReceiver>[0]> {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    installationStore: oauth.installationStore,
    scopes: [...BOT_SCOPES],
    installerOptions: {
      installPath: "/slack/install",
      redirectUriPath: "/slack/oauth_redirect",
      // The page with the "Add to Slack" button, rather than a redirect straight to Slack.
      directInstall: false,
      clientOptions: oauth.clientOptions,
    },
  };
}

/** How far ahead of now the request says it was sent; 0 when it says nothing readable (Bolt then refuses it). */
function secondsAhead(req: IncomingMessage): number {
  const header = req.headers["x-slack-request-timestamp"];
  const timestamp = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(timestamp)) return 0;
  return Math.floor(timestamp - Date.now() / 1000);
}
