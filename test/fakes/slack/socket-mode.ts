import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";

/**
 * The fake Slack's Socket Mode: the WebSocket that apps.connections.open points at (`/socket`),
 * envelopes sent to every connected client, their acknowledgements recorded, and the pings Slack
 * sends (without them clients reconnect after 30 s).
 */
export class SocketModeServer {
  /** Acknowledgements received, in order. */
  readonly acks: { envelopeId: string; payload?: unknown }[] = [];
  private readonly pendingAcks = new Map<string, (payload: unknown) => void>();
  private readonly sockets = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private pinger?: NodeJS.Timeout;

  /** Takes the upgrades to `/socket` on `server`. */
  attach(server: Server): void {
    server.on("upgrade", (req, socket, head) => {
      if (!req.url?.startsWith("/socket")) return socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    this.pinger = setInterval(() => this.sockets.forEach((socket) => socket.ping()), 10_000).unref();
  }

  get connections(): number {
    return this.sockets.size;
  }

  /** Sends an envelope to every connected client; resolves with the acknowledgement's payload. */
  async send(payload: unknown, type: string, timeoutMs: number): Promise<unknown> {
    const envelopeId = randomUUID();
    const acked = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`FakeSlack: envelope ${envelopeId} was not acknowledged`)), timeoutMs);
      this.pendingAcks.set(envelopeId, (ack) => {
        clearTimeout(timer);
        resolve(ack);
      });
    });
    const envelope = { envelope_id: envelopeId, type, payload, accepts_response_payload: type !== "events_api", retry_attempt: 0, retry_reason: "" };
    for (const socket of this.sockets) socket.send(JSON.stringify(envelope));
    return acked;
  }

  close(): void {
    clearInterval(this.pinger);
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
  }

  private accept(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as { envelope_id?: string; payload?: unknown };
      if (!message.envelope_id) return;
      this.acks.push({ envelopeId: message.envelope_id, payload: message.payload });
      this.pendingAcks.get(message.envelope_id)?.(message.payload);
      this.pendingAcks.delete(message.envelope_id);
    });
    socket.send(JSON.stringify({ type: "hello", num_connections: this.sockets.size, connection_info: { app_id: "A1" }, debug_info: { host: "fake-slack" } }));
  }
}
