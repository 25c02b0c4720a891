import { readMultipart } from "../multipart.js";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "../close-server.js";
import { answer, type Answer } from "../fake-http-server.js";
import { FakeFileHost } from "../file-host.js";
import { FakeConversations } from "./conversations.js";
import { FakeInstalls } from "./installs.js";
import { ChannelMessages, type FakeMessage } from "./messages.js";
import { SocketModeServer } from "./socket-mode.js";
import { streamCall } from "./streams.js";

/** One Web API call as the fake received it, with what it answered. */
export interface SlackCall {
  method: string;
  params: Record<string, any>;
  token?: string;
  at: number;
  status: number;
  response: Record<string, any>;
}

/** A message only one user sees (chat.postEphemeral). */
export interface FakeEphemeral {
  channel: string;
  user: string;
  text: string;
  threadTs?: string;
}

export interface FakeUser {
  id: string;
  name: string;
  /** Admin or owner of their own workspace (`teamId`). */
  isAdmin?: boolean;
  isOwner?: boolean;
  /** Their own workspace; the fake's team unless given. */
  teamId?: string;
  /** On Enterprise Grid: their organisation, and their standing in it (users.info's enterprise_user). */
  enterprise?: { id: string; isAdmin?: boolean; isOwner?: boolean };
}

/** What the fake does instead of answering at once: a Slack error code, HTTP 429 with Retry-After, or a delay. */
export type Fault = { error: string } | { ratelimited: { retryAfterSeconds: number } } | { delayMs: number };

interface FaultRule {
  method: string;
  fault: Fault;
  remaining: number;
  when?: (params: Record<string, any>) => boolean;
}

export interface FakeSlackOptions {
  botToken?: string;
  appToken?: string;
  botUserId?: string;
  botId?: string;
  teamId?: string;
  /** Longest chat.postMessage/chat.update text accepted before msg_too_long (default 4,000: see ChannelMessages). */
  maxTextLength?: number;
  /**
   * The app has the files:read scope (default true). Without it, as with a wrong token, Slack
   * answers a file download with its sign-in page (HTTP 200, HTML).
   */
  filesScope?: boolean;
  /**
   * Native streaming (chat.startStream, appendStream, stopStream): on (default); "refused" as a
   * workspace where it is not available (channel_type_not_supported); "unknown" as an older Slack
   * without the methods (unknown_method).
   */
  streaming?: "on" | "refused" | "unknown";
  /** A stream with no write for this long has expired (message_not_in_streaming_state). Default: never. */
  streamIdleMs?: number;
  /** assistant.threads.setStatus works (the app has the assistant feature); default true. */
  threadStatus?: boolean;
  /** The app's OAuth credentials, for distribution mode (oauth.v2.access checks them). */
  oauthClient?: { id: string; secret: string };
}

/** What files.slack.com answers a download without a token that may read files. */
const SIGN_IN_PAGE = '<!DOCTYPE html><html lang="en-US"><head><title>Slack</title></head><body>Sign in to your workspace</body></html>';

/**
 * A local Slack for tests and benchmarks on 127.0.0.1: the Web API (`POST /api/<method>`, form or
 * JSON, every call recorded), response_url endpoints for slash commands, and a Socket Mode
 * WebSocket that apps.connections.open points at.
 */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  /** Bodies posted to response_url endpoints (slash command answers), in order. */
  readonly responses: { path: string; body: any }[] = [];
  readonly ephemerals: FakeEphemeral[] = [];
  /** Files shared through the upload flow (files.getUploadURLExternal, the upload, files.completeUploadExternal). */
  readonly files: { id: string; name: string; channel?: string; threadTs?: string; text: string; note?: string }[] = [];
  private readonly uploads = new Map<string, { name: string; bytes?: Buffer }>();
  readonly users = new Map<string, FakeUser>();
  /** assistant.threads.setStatus calls that were accepted, in order. */
  readonly statuses: { channel: string; threadTs: string; status: string }[] = [];
  /** Assistant threads' suggested prompts and titles (assistant.threads.setSuggestedPrompts / setTitle), by "channel/thread_ts". */
  readonly suggestedPrompts = new Map<string, { title?: string; prompts: { title: string; message: string }[] }>();
  readonly threadTitles = new Map<string, string>();
  /** Each user's App Home view as last published (views.publish). */
  readonly homes = new Map<string, { type: string; blocks: any[] }>();
  readonly botToken: string;
  readonly appToken: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  /** Distribution mode: codes, the tokens they were exchanged for, refreshes (see FakeInstalls). */
  readonly installs: FakeInstalls;
  baseUrl = "";
  /** Channels conversations.info and conversations.members know (add them with `conversations.add`). */
  readonly conversations = new FakeConversations();
  /** Slack's file host, on the fake's own server: point SLACK_FILES_URL at `files.baseUrl`. */
  readonly filesHost = new FakeFileHost("/files-pri/", () => this.baseUrl);

  /** The channels' messages (chat.postMessage, chat.update, chat.delete, reactions). */
  private readonly chat: ChannelMessages;
  private readonly options: FakeSlackOptions;
  private readonly faults: FaultRule[] = [];
  private readonly callListeners = new Set<(call: SlackCall) => void>();
  private readonly socketMode = new SocketModeServer();
  private server?: Server;

  private constructor(options: FakeSlackOptions) {
    this.botToken = options.botToken ?? "xoxb-fake-bot-token";
    this.appToken = options.appToken ?? "xapp-fake-app-token";
    this.botUserId = options.botUserId ?? "UBOT";
    this.botId = options.botId ?? "BBOT";
    this.teamId = options.teamId ?? "T1";
    this.chat = new ChannelMessages({ userId: this.botUserId, botId: this.botId }, options.maxTextLength ?? 4_000);
    this.options = options;
    this.installs = new FakeInstalls(options.oauthClient ?? { id: "fake-client-id", secret: "fake-client-secret" });
    const filesScope = options.filesScope ?? true;
    this.filesHost.gate = (request) =>
      filesScope && this.mayReadFiles(request.headers.authorization) ? undefined : answer.text(200, SIGN_IN_PAGE, "text/html; charset=utf-8");
  }

  /** The single workspace's bot token, or one issued through OAuth and still valid. */
  private mayReadFiles(authorization: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
    return token === this.botToken || this.installs.ownerOf(token) !== undefined;
  }

  /**
   * A file on the files host and the file object an event carries for it, as Slack describes one.
   * `size` is what Slack declares (the body's length unless given).
   */
  file(name: string, served: Answer, declared: { mimetype?: string; size?: number } = {}): Record<string, unknown> {
    const url = this.filesHost.serve(name, served);
    const size = declared.size ?? (served.kind === "body" ? served.body.length : 0);
    const id = `F${randomUUID().slice(0, 8).toUpperCase()}`;
    return {
      id,
      name,
      title: name,
      mimetype: declared.mimetype,
      filetype: name.split(".").pop(),
      size,
      mode: "hosted",
      url_private: url,
      url_private_download: url,
    };
  }

  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const fake = new FakeSlack(options);
    await fake.listen();
    return fake;
  }

  /** The Web API base URL, for SLACK_API_URL / clientOptions.slackApiUrl. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  /** A fresh response_url for one slash command. */
  responseUrl(): string {
    return `${this.baseUrl}/response/${randomUUID()}`;
  }

  addUser(user: FakeUser): this {
    this.users.set(user.id, user);
    return this;
  }

  /** Makes the next `times` calls to `method` (matching `when`) fail with `fault`. */
  fail(method: string, fault: Fault, options: { times?: number; when?: (params: Record<string, any>) => boolean } = {}): this {
    this.faults.push({ method, fault, remaining: options.times ?? 1, when: options.when });
    return this;
  }

  /** Calls `listener` as each Web API call is answered (for benchmarks: no polling delay). Returns an unsubscribe. */
  onCall(listener: (call: SlackCall) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  callsTo(method: string): SlackCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Every message posted and not deleted, as it is now, in the order posted. */
  get messages(): FakeMessage[] {
    return this.chat.messages;
  }

  /** Replies in a thread, oldest first (the root itself excluded). */
  thread(channel: string, threadTs: string): FakeMessage[] {
    return this.chat.thread(channel, threadTs);
  }

  /** Messages posted at the top of a channel. */
  topLevel(channel: string): FakeMessage[] {
    return this.chat.topLevel(channel);
  }

  reactionsOn(channel: string, ts: string): string[] {
    return this.chat.reactionsOn(channel, ts);
  }

  /** A ts as Slack would give one: increasing, unique. */
  nextTs(): string {
    return this.chat.nextTs();
  }

  /** Polls until `check` returns something truthy, and returns it. */
  async waitFor<T>(check: () => T | undefined | null | false, { timeoutMs = 10_000, what = "a condition" } = {}): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`FakeSlack: timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  get socketConnections(): number {
    return this.socketMode.connections;
  }

  /** Socket Mode acknowledgements received, in order. */
  get acks(): { envelopeId: string; payload?: unknown }[] {
    return this.socketMode.acks;
  }

  /**
   * Sends a Socket Mode envelope (events_api, slash_commands, interactive) to every connected
   * client and resolves with the acknowledgement's payload.
   */
  async sendEnvelope(payload: unknown, type = "events_api", { timeoutMs = 5_000 } = {}): Promise<unknown> {
    await this.waitFor(() => this.socketMode.connections > 0, { timeoutMs, what: "a Socket Mode connection" });
    return this.socketMode.send(payload, type, timeoutMs);
  }

  async close(): Promise<void> {
    this.filesHost.close();
    this.socketMode.close();
    await closeServer(this.server);
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.socketMode.attach(this.server);
    return new Promise((resolve) => {
      this.server!.listen(0, "127.0.0.1", () => {
        this.baseUrl = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.filesHost.handle(req, res)) return;
    const raw = await readBody(req);
    const path = new URL(req.url ?? "/", this.baseUrl).pathname;
    if (path.startsWith("/upload/")) {
      const upload = this.uploads.get(path.slice("/upload/".length));
      if (!upload) return send(res, 404, { ok: false });
      // The SDK posts the file as a multipart form; its one file part is the content.
      const type = String(req.headers["content-type"] ?? "");
      upload.bytes = type.startsWith("multipart/form-data")
        ? Buffer.from(readMultipart(Buffer.from(raw, "utf8"), type).files[0]?.text ?? "", "utf8")
        : Buffer.from(raw, "utf8");
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("OK - 1");
      return;
    }
    if (path.startsWith("/response/")) {
      this.responses.push({ path, body: parseBody(raw, req.headers["content-type"]) });
      return send(res, 200, { ok: true });
    }
    const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
    if (req.method !== "POST" || !method) return send(res, 404, { ok: false, error: "unknown_method" });

    const params = parseBody(raw, req.headers["content-type"]);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? params.token;
    const call: SlackCall = { method, params, token, at: performance.now(), status: 200, response: {} };
    this.calls.push(call);

    let fault = this.takeFault(method, params);
    if (fault && "delayMs" in fault) {
      await new Promise((resolve) => setTimeout(resolve, (fault as { delayMs: number }).delayMs));
      fault = undefined;
    }
    if (fault && "ratelimited" in fault) {
      call.status = 429;
      call.response = { ok: false, error: "ratelimited" };
      send(res, 429, call.response, { "retry-after": String(fault.ratelimited.retryAfterSeconds) });
    } else {
      call.response = fault ? { ok: false, error: fault.error } : this.answer(method, params, token);
      send(res, 200, call.response);
    }
    for (const listener of this.callListeners) listener(call);
  }

  private takeFault(method: string, params: Record<string, any>): Fault | undefined {
    const rule = this.faults.find((r) => r.method === method && r.remaining > 0 && (!r.when || r.when(params)));
    if (!rule) return undefined;
    rule.remaining--;
    return rule.fault;
  }

  private answer(method: string, params: Record<string, any>, token: string | undefined): Record<string, any> {
    if (method === "oauth.v2.access") return this.installs.exchange(params);
    // The single workspace's token, or one issued through OAuth (and neither revoked nor expired).
    const installed = this.installs.ownerOf(token);
    const expected = method === "apps.connections.open" ? this.appToken : this.botToken;
    if (token !== expected && !(installed && method !== "apps.connections.open")) return { ok: false, error: "invalid_auth" };
    switch (method) {
      case "auth.test":
        return {
          ok: true,
          url: "https://fake.slack.test/",
          team: "Fake",
          user: "bot",
          team_id: installed ? installed.teamId : this.teamId,
          ...(installed?.enterpriseId ? { enterprise_id: installed.enterpriseId } : {}),
          user_id: installed?.botUserId ?? this.botUserId,
          bot_id: installed?.botId ?? this.botId,
          is_enterprise_install: installed?.isEnterpriseInstall ?? false,
        };
      case "apps.connections.open":
        return { ok: true, url: `${this.baseUrl.replace(/^http/, "ws")}/socket?ticket=${randomUUID()}` };
      case "chat.postMessage":
        return this.chat.post(params);
      case "chat.update":
        return this.chat.update(params);
      case "chat.delete":
        return this.chat.remove(params);
      case "chat.startStream":
      case "chat.appendStream":
      case "chat.stopStream":
        return streamCall(method, params, { messages: this.messages, options: this.options, botUserId: this.botUserId, nextTs: () => this.nextTs() });
      case "assistant.threads.setStatus":
        if (this.options.threadStatus === false) return { ok: false, error: "unknown_method" };
        this.statuses.push({ channel: String(params.channel_id), threadTs: String(params.thread_ts), status: String(params.status ?? "") });
        return { ok: true };
      case "assistant.threads.setSuggestedPrompts": {
        const prompts = typeof params.prompts === "string" ? JSON.parse(params.prompts) : params.prompts;
        if (!params.channel_id || !params.thread_ts || !Array.isArray(prompts) || prompts.length === 0 || prompts.length > 4)
          return { ok: false, error: "invalid_arguments" };
        this.suggestedPrompts.set(`${params.channel_id}/${params.thread_ts}`, { title: params.title, prompts });
        return { ok: true };
      }
      case "assistant.threads.setTitle":
        if (!params.channel_id || !params.thread_ts || !params.title) return { ok: false, error: "invalid_arguments" };
        this.threadTitles.set(`${params.channel_id}/${params.thread_ts}`, String(params.title));
        return { ok: true };
      case "views.publish": {
        const view = typeof params.view === "string" ? JSON.parse(params.view) : params.view;
        if (!params.user_id || view?.type !== "home" || !Array.isArray(view.blocks) || view.blocks.length > 100)
          return { ok: false, error: "invalid_arguments" };
        if (view.blocks.some((block: any) => block.type === "section" && String(block.text?.text ?? "").length > 3_000))
          return { ok: false, error: "invalid_blocks" };
        this.homes.set(String(params.user_id), view);
        return { ok: true, view: { id: `V${params.user_id}`, ...view } };
      }
      case "chat.postEphemeral": {
        if (!params.channel || !params.user) return { ok: false, error: "channel_not_found" };
        this.ephemerals.push({
          channel: String(params.channel),
          user: String(params.user),
          text: String(params.text ?? ""),
          threadTs: params.thread_ts ? String(params.thread_ts) : undefined,
        });
        return { ok: true, message_ts: this.nextTs() };
      }
      case "reactions.add":
      case "reactions.remove":
        return this.chat.react(method === "reactions.add", params);
      case "users.info":
        return this.userInfo(String(params.user ?? ""));
      case "conversations.info":
        return this.conversations.info(params);
      case "conversations.members":
        return this.conversations.members(params);
      case "conversations.history":
        return this.conversations.history(params);
      case "conversations.replies":
        return this.conversations.replies(params);
      case "files.getUploadURLExternal": {
        const id = `F${randomUUID().slice(0, 8).toUpperCase()}`;
        this.uploads.set(id, { name: String(params.filename ?? "file") });
        return { ok: true, upload_url: `${this.baseUrl}/upload/${id}`, file_id: id };
      }
      case "files.completeUploadExternal":
        return this.completeUpload(params);
      default:
        return { ok: false, error: "unknown_method" };
    }
  }

  private completeUpload(params: Record<string, any>): Record<string, any> {
    const entries = (typeof params.files === "string" ? JSON.parse(params.files) : params.files) as { id: string; title?: string }[];
    const shared = [];
    for (const entry of entries ?? []) {
      const upload = this.uploads.get(entry.id);
      if (!upload?.bytes) return { ok: false, error: "file_not_found" };
      const channel = params.channel_id ? String(params.channel_id) : undefined;
      const threadTs = params.thread_ts ? String(params.thread_ts) : undefined;
      this.files.push({
        id: entry.id,
        name: upload.name,
        channel,
        threadTs,
        text: upload.bytes.toString("utf8"),
        note: params.initial_comment ? String(params.initial_comment) : undefined,
      });
      shared.push({ id: entry.id, title: entry.title ?? upload.name });
    }
    return { ok: true, files: shared };
  }

  private userInfo(id: string): Record<string, any> {
    const user = this.users.get(id);
    if (!user) return { ok: false, error: "user_not_found" };
    return {
      ok: true,
      user: {
        id: user.id,
        team_id: user.teamId ?? this.teamId,
        name: user.name,
        real_name: user.name,
        is_admin: user.isAdmin ?? false,
        is_owner: user.isOwner ?? false,
        is_primary_owner: false,
        is_bot: false,
        profile: { display_name: user.name, real_name: user.name },
        ...(user.enterprise
          ? {
              enterprise_user: {
                id: user.id,
                enterprise_id: user.enterprise.id,
                enterprise_name: `org ${user.enterprise.id}`,
                is_admin: user.enterprise.isAdmin ?? false,
                is_owner: user.enterprise.isOwner ?? false,
                is_primary_owner: false,
                teams: [user.teamId ?? this.teamId],
              },
            }
          : {}),
      },
    };
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(raw: string, contentType: string | undefined): Record<string, any> {
  if (raw === "") return {};
  if (contentType?.includes("application/json")) return JSON.parse(raw);
  return Object.fromEntries(new URLSearchParams(raw));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload), ...headers });
  res.end(payload);
}
