import type { Server } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { GatewayIntent } from "./payloads.js";
import { snowflake } from "./snowflake.js";
import type { World } from "./world.js";

const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, Resume: 6, InvalidSession: 9, Hello: 10, HeartbeatAck: 11 } as const;
const HEARTBEAT_INTERVAL_MS = 41_250;

export interface IdentifyRecord {
  token: string;
  intents: number;
  /** [shard id, shard count] the client asked for ([0, 1] when it sent none). */
  shard: [number, number];
  at: number;
}

interface Session {
  socket: WebSocket;
  sequence: number;
  intents: number;
  ready: boolean;
  shard: [number, number];
}

/** Which shard receives a guild's events, as Discord decides it: (guild_id >> 22) % shard count. */
const shardOf = (guildId: string, count: number): number => Number((BigInt(guildId) >> 22n) % BigInt(count));

/**
 * The gateway WebSocket at /gateway: Hello, Identify → READY (with `application`) and one
 * GUILD_CREATE per guild of the session's shard, heartbeat acks, and dispatches to the identified
 * sessions of the event's shard (a guild's shard; direct messages go to shard 0), as Discord
 * shards a bot; while two sessions hold one shard (a handover), both receive its events. A Resume is refused with Invalid Session, so a client always starts afresh.
 */
export class FakeGateway {
  readonly identifies: IdentifyRecord[] = [];
  private readonly sessions = new Set<Session>();
  private readonly server: WebSocketServer;

  constructor(
    http: Server,
    private readonly world: World,
    private readonly token: string,
  ) {
    this.server = new WebSocketServer({ server: http, path: "/gateway" });
    this.server.on("connection", (socket) => this.accept(socket));
  }

  /** Sessions that finished identifying and may receive events. */
  get readySessions(): number {
    return [...this.sessions].filter((session) => session.ready).length;
  }

  /**
   * Sends one event to every identified session; resolves once written. Message content is
   * blanked, as Discord does, for sessions without the Message Content intent unless the
   * message mentions the bot or is a DM.
   */
  async dispatch(event: string, data: Record<string, unknown>): Promise<void> {
    const writes = [...this.sessions]
      .filter((session) => session.ready && this.receives(session, data))
      .map((session) => this.send(session, { op: Op.Dispatch, t: event, s: ++session.sequence, d: this.visibleTo(session, event, data) }));
    await Promise.all(writes);
  }

  close(): void {
    for (const session of this.sessions) session.socket.terminate();
    this.sessions.clear();
    this.server.close();
  }

  /** Sessions that finished identifying, by their shard ids. */
  get readyShards(): number[] {
    return [...this.sessions].filter((session) => session.ready).map((session) => session.shard[0]);
  }

  private receives(session: Session, data: Record<string, unknown>): boolean {
    const [id, count] = session.shard;
    const guildId = typeof data.guild_id === "string" ? data.guild_id : undefined;
    return guildId === undefined ? id === 0 : shardOf(guildId, count) === id;
  }

  private accept(socket: WebSocket): void {
    const session: Session = { socket, sequence: 0, intents: 0, ready: false, shard: [0, 1] };
    this.sessions.add(session);
    socket.on("close", () => this.sessions.delete(session));
    socket.on("message", (raw) => void this.receive(session, raw.toString()));
    void this.send(session, { op: Op.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL_MS }, s: null, t: null });
  }

  private async receive(session: Session, raw: string): Promise<void> {
    const packet = JSON.parse(raw) as { op: number; d: any };
    switch (packet.op) {
      case Op.Heartbeat:
        return this.send(session, { op: Op.HeartbeatAck, d: null, s: null, t: null });
      case Op.Identify:
        return this.identify(session, packet.d);
      case Op.Resume:
        return this.send(session, { op: Op.InvalidSession, d: false, s: null, t: null });
    }
  }

  private async identify(session: Session, data: { token: string; intents: number; shard?: [number, number] }): Promise<void> {
    session.shard = data.shard ?? [0, 1];
    this.identifies.push({ token: data.token, intents: data.intents, shard: session.shard, at: Date.now() });
    if (data.token !== this.token && data.token !== `Bot ${this.token}`) {
      session.socket.close(4004, "Authentication failed.");
      return;
    }
    session.intents = data.intents;
    const guildIds = [...this.world.guilds.keys()].filter((id) => shardOf(id, session.shard[1]) === session.shard[0]);
    await this.send(session, {
      op: Op.Dispatch,
      t: "READY",
      s: ++session.sequence,
      d: {
        v: 10,
        user: this.world.bot,
        guilds: guildIds.map((id) => ({ id, unavailable: true })),
        session_id: snowflake(),
        resume_gateway_url: "ws://127.0.0.1:9/unused",
        shard: session.shard,
        application: { id: this.world.application.id, flags: 0 },
        private_channels: [],
        relationships: [],
        user_settings: {},
      },
    });
    session.ready = true;
    for (const id of guildIds) {
      await this.send(session, { op: Op.Dispatch, t: "GUILD_CREATE", s: ++session.sequence, d: this.world.guildCreatePayload(id) });
    }
  }

  private visibleTo(session: Session, event: string, data: Record<string, unknown>): Record<string, unknown> {
    if (event !== "MESSAGE_CREATE" || session.intents & GatewayIntent.MessageContent) return data;
    const mentionsBot = (data.mentions as { id: string }[] | undefined)?.some((m) => m.id === this.world.bot.id);
    const isDm = data.guild_id === undefined;
    const ownMessage = (data.author as { id: string } | undefined)?.id === this.world.bot.id;
    return mentionsBot || isDm || ownMessage ? data : { ...data, content: "" };
  }

  private send(session: Session, packet: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (session.socket.readyState !== session.socket.OPEN) return resolve();
      session.socket.send(JSON.stringify(packet), () => resolve());
    });
  }
}
