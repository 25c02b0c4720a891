import type { ServerOptions } from "node:http";

/**
 * The limits of every HTTP server the bot runs (Slack's HTTP receiver, the health and metrics
 * server). Node's own defaults give a client five minutes to send a request and check only every
 * 30 s, so a body trickled at a byte every 200 ms held its connection open for minutes. Slack
 * sends an event's few kilobytes at once (and wants an answer within 3 s); a health probe has no
 * body at all: a request not in within a few seconds is not a real one.
 */
export const SERVER_LIMITS = {
  /** The whole request (headers and body) must have arrived within this long. */
  requestTimeout: 5_000,
  /** The headers must have arrived within this long (at most requestTimeout, Node insists). */
  headersTimeout: 5_000,
  /** How often Node looks for requests past those timeouts (its default is 30 s). */
  connectionsCheckingInterval: 500,
} as const satisfies ServerOptions;
