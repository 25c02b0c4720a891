import type pg from "pg";
import type { Logger } from "../../log.js";
import { createClient, type ConnectionSettings } from "./connection.js";

/** Channels the processes notify each other on. */
export const CHANNELS = {
  /** A workspace's settings changed; payload: its cache key. */
  settings: "agent_bot_settings",
  /** A place in a conversation's line was given up; payload: md5 of the conversation key. */
  queue: "agent_bot_queue",
} as const;

type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * One connection of its own that LISTENs for the other processes' notifications (settings changes,
 * places in line given up). When it drops it reconnects with backoff; meanwhile `listening` is
 * false and the store reads settings uncached and polls the queue, so nothing waits on a
 * notification that cannot come.
 */
export class ChangeListener {
  private client?: pg.Client;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  listening = false;

  constructor(
    private readonly settings: ConnectionSettings,
    private readonly handlers: Record<Channel, (payload: string) => void>,
    private readonly onListening: (listening: boolean) => void,
    private readonly logger: Logger,
  ) {}

  /** Connects once; on failure it keeps trying in the background. */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.setListening(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = createClient(this.settings);
    this.client = client;
    client.on("notification", (message) => {
      const handler = this.handlers[message.channel as Channel];
      if (handler && message.payload !== undefined) handler(message.payload);
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
      this.retryMs = FIRST_RETRY_MS;
      this.setListening(true);
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.setListening(false);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err: error, retryInMs: this.retryMs }, "lost the connection that listens for other bot processes' changes; reconnecting");
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private setListening(listening: boolean): void {
    if (listening === this.listening) return;
    this.listening = listening;
    this.onListening(listening);
  }
}
