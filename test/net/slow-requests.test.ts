import type { Server } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_LIMITS } from "../../src/net/server-limits.js";
import { createHealthHandler, serverPort, startHealthServer } from "../../src/ops/health.js";
import { BotMetrics } from "../../src/ops/metrics.js";
import { SlackHarness } from "../support/slack-harness.js";

/** A request this slow: one byte every 200 ms. */
const TRICKLE_MS = 200;
/** How long the test waits for the server to end the connection (Node's defaults take 5 minutes). */
const BOUND_MS = SERVER_LIMITS.requestTimeout + 5_000;

interface Trickled {
  /** How long the connection stayed open. */
  ms: number;
  /** What the server wrote back before closing, if anything. */
  answer: string;
  /** The server closed it (not the test, giving up at the bound). */
  closedByServer: boolean;
}

/**
 * Opens a raw connection, writes `sent` at once, then `trickled` a byte at a time until the server
 * closes the connection or the bound passes (then the test gives up and closes it itself).
 */
function trickle(port: number, sent: string, trickled: string): Promise<Trickled> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let next = 0;
    let gaveUp = false;
    const timer = setInterval(() => {
      if (next < trickled.length && !socket.destroyed) socket.write(trickled[next++] ?? "");
    }, TRICKLE_MS);
    const giveUp = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, BOUND_MS);
    socket.on("connect", () => socket.write(sent));
    socket.on("data", (chunk) => (answer += String(chunk)));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ ms: Date.now() - started, answer, closedByServer: !gaveUp });
    });
  });
}

const slowBody = (path: string, host: string): [string, string] => [
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
  "x".repeat(1000),
];
const slowHeaders = (path: string, host: string): [string, string] => ["", `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${"x".repeat(1000)}\r\n\r\n`];

describe("every HTTP server of the bot ends a slowly trickled request within seconds", () => {
  let slack: SlackHarness | undefined;
  let health: Server | undefined;
  afterEach(async () => {
    await slack?.close();
    if (health) await new Promise((resolve) => health?.close(resolve));
    slack = undefined;
    health = undefined;
  });

  it("the Slack HTTP receiver (a slow body on /slack/events, slow headers) and the health server (both)", { timeout: BOUND_MS * 2 + 10_000 }, async () => {
    slack = await SlackHarness.start();
    const slackPort = Number(new URL(slack.sender.url).port);
    health = await startHealthServer(0, createHealthHandler({ store: { ping: async () => {} }, metrics: new BotMetrics(), platforms: () => [] }), "127.0.0.1");
    const healthPort = serverPort(health);

    const results = await Promise.all([
      trickle(slackPort, ...slowBody("/slack/events", "bot")),
      trickle(slackPort, ...slowHeaders("/healthz", "bot")),
      trickle(healthPort, ...slowBody("/upload", "bot")),
      trickle(healthPort, ...slowHeaders("/healthz", "bot")),
    ]);

    for (const result of results) {
      expect(result.closedByServer).toBe(true);
      expect(result.ms).toBeLessThan(SERVER_LIMITS.requestTimeout + 2_000);
    }
    // A slow body is told why: 408 Request Timeout.
    expect(results[0]?.answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
