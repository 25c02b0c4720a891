import type { IncomingMessage, ServerResponse } from "node:http";
import { HTTPReceiver, type Logger as BoltLogger } from "@slack/bolt";

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
}

/**
 * Bolt's own HTTP receiver (signature and staleness checks on, events at /slack/events), with
 * requests dated more than a minute ahead refused with 401 before Bolt reads them.
 */
export function slackHttpReceiver({ signingSecret, customRoutes, logger }: SlackHttpReceiverOptions): HTTPReceiver {
  const receiver = new HTTPReceiver({ signingSecret, processBeforeResponse: false, logger, ...(customRoutes ? { customRoutes } : {}) });
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

/** How far ahead of now the request says it was sent; 0 when it says nothing readable (Bolt then refuses it). */
function secondsAhead(req: IncomingMessage): number {
  const header = req.headers["x-slack-request-timestamp"];
  const timestamp = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(timestamp)) return 0;
  return Math.floor(timestamp - Date.now() / 1000);
}
