import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Config } from "../config/env.js";
import { discordSignIn } from "./sign-in/discord.js";
import { slackSignIn } from "./sign-in/slack.js";
import type { PlatformIdentity, SignInProvider } from "./sign-in/provider.js";
import { SERVER_LIMITS } from "../net/server-limits.js";
import { ASSETS } from "./assets.js";
import type { PageContext, PageHandler, PageResult } from "./context.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { routeOf } from "./pages/index.js";
import {
  allowedHosts,
  bearerOf,
  clearedCookie,
  cookieOf,
  isLoopback,
  sameSecret,
  SECURITY_HEADERS,
  hostName,
  SESSION_COOKIE,
  Sessions,
  SignInLimiter,
} from "./security.js";
import type { ConsoleServices, ConsoleSettings } from "./services.js";
import { OPERATOR, type Viewer } from "./viewer.js";
import { hasCode } from "../errors.js";

/** The console's settings from the configuration. */
export function consoleSettingsOf(config: Config): ConsoleSettings {
  return {
    port: config.CONSOLE_PORT ?? 0,
    host: config.CONSOLE_HOST,
    token: config.CONSOLE_TOKEN,
    publicUrl: config.CONSOLE_PUBLIC_URL,
    sessionHours: config.CONSOLE_SESSION_HOURS,
    providers: [
      ...(config.DISCORD_CLIENT_ID && config.DISCORD_CLIENT_SECRET
        ? [discordSignIn({ clientId: config.DISCORD_CLIENT_ID, clientSecret: config.DISCORD_CLIENT_SECRET, baseUrl: config.DISCORD_OAUTH_URL })]
        : []),
      ...(config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET
        ? [slackSignIn({ clientId: config.SLACK_CLIENT_ID, clientSecret: config.SLACK_CLIENT_SECRET, baseUrl: config.SLACK_OAUTH_URL })]
        : []),
    ],
  };
}

const STATE_COOKIE = "console_sign_in";
const STATE_MS = 10 * 60_000;
const MAX_STATES = 10_000;

/** A posted form larger than this is refused (a settings form with every tool is a few KB). */
const MAX_FORM_BYTES = 64 * 1024;
const FORM_TIMEOUT_MS = 10_000;

/**
 * Why the console may not start with these settings, or undefined. Off loopback, the token alone
 * would travel in clear: another address needs https in front (CONSOLE_PUBLIC_URL) or a sign-in
 * through a platform.
 */
export function consoleStartProblem(settings: Pick<ConsoleSettings, "host" | "token" | "publicUrl" | "providers">): string | undefined {
  const platformSignIn = settings.providers.length > 0;
  if (!settings.token && !platformSignIn) {
    return "CONSOLE_PORT is set but no sign-in is: set CONSOLE_TOKEN (a long random value), or a platform sign-in (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET; SLACK_CLIENT_ID and SLACK_CLIENT_SECRET), to use the console.";
  }
  if (!isLoopback(settings.host) && !platformSignIn && !settings.publicUrl?.startsWith("https://")) {
    return `The console would listen on ${settings.host}, which is not loopback: set CONSOLE_PUBLIC_URL to its https:// address (behind a TLS proxy), or keep CONSOLE_HOST=127.0.0.1.`;
  }
  return undefined;
}

export interface ConsoleServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Starts the operator's console on its own port (CONSOLE_PORT). */
export async function startConsole(services: ConsoleServices, settings: ConsoleSettings): Promise<ConsoleServer> {
  const problem = consoleStartProblem(settings);
  if (problem) throw new Error(problem);
  const handler = new ConsoleHandler(services, settings);
  const server = createServer(SERVER_LIMITS, (req, res) => {
    handler.handle(req, res).catch((error: unknown) => {
      services.logger.error({ err: error, path: req.url?.split("?")[0] }, "the console could not answer a request");
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "Something went wrong; the bot's log has the details.\n");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  handler.listeningOn(port);
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": contentType, ...headers });
  res.end(body);
}

class ConsoleHandler {
  private readonly sessions: Sessions;
  private readonly limiter: SignInLimiter;
  private readonly secure: boolean;
  private hosts = new Set<string>();
  /** Where platforms send the browser back: CONSOLE_PUBLIC_URL, else the address the console listens on. */
  private base = "";
  /** Sign-ins under way (OAuth2 states), each for a few minutes. */
  private readonly states = new Map<string, number>();

  constructor(
    private readonly services: ConsoleServices,
    private readonly settings: ConsoleSettings,
  ) {
    const now = services.now ?? Date.now;
    this.sessions = new Sessions(services.store.consoleSessions, settings.sessionHours * 60 * 60 * 1000, now);
    this.limiter = new SignInLimiter(now);
    this.secure = settings.publicUrl?.startsWith("https://") ?? false;
  }

  listeningOn(port: number): void {
    this.hosts = allowedHosts(this.settings.host, port, this.settings.publicUrl);
    this.base = (this.settings.publicUrl ?? `http://${hostName(this.settings.host)}:${port}`).replace(/\/+$/, "");
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.hosts.has((req.headers.host ?? "").toLowerCase())) {
      send(res, 421, "text/plain; charset=utf-8", "This console does not answer to that host name.\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://console.invalid");
    const path = url.pathname;
    const asset = req.method === "GET" ? ASSETS[path] : undefined;
    if (asset) {
      send(res, 200, asset.contentType, asset.body, { "cache-control": "no-cache" });
      return;
    }
    if (path === "/login") return this.login(req, res);
    const provider = this.settings.providers.find((p) => path === `/login/${p.name}` || path === `/login/${p.name}/callback`);
    if (provider && req.method === "GET") return path.endsWith("/callback") ? this.callback(req, res, url, provider) : this.startSignIn(res, provider);

    const bearer = bearerOf(req);
    const session = await this.sessions.get(cookieOf(req, SESSION_COOKIE));
    let viewer: Viewer | undefined;
    if (bearer !== undefined) viewer = this.settings.token && sameSecret(bearer, this.settings.token) ? OPERATOR : undefined;
    else viewer = session?.viewer;
    if (!viewer) {
      if (bearer !== undefined || req.method !== "GET") send(res, 401, "text/plain; charset=utf-8", "Sign in first.\n");
      else redirect(res, "/login");
      return;
    }

    const form = req.method === "POST" ? await readForm(req) : new URLSearchParams();
    if (form === undefined) {
      send(res, 413, "text/plain; charset=utf-8", "That form is too large.\n");
      return;
    }
    // A change from a browser carries its session's CSRF token; a script's bearer token cannot be sent by another site's page.
    if (req.method === "POST" && bearer === undefined && !(session && sameSecret(form.get("csrf") ?? undefined, session.csrf))) {
      send(res, 403, "text/plain; charset=utf-8", "This form is missing its security token (or it expired): reload the page and try again.\n");
      return;
    }
    if (path === "/logout" && req.method === "POST") {
      if (session) await this.sessions.end(session.id);
      redirect(res, "/login", { "set-cookie": clearedCookie(this.secure) });
      return;
    }
    const route = routeOf(path);
    const handler: PageHandler | undefined = req.method === "POST" ? route?.post : route?.get;
    if (!handler) {
      send(res, route ? 405 : 404, "text/plain; charset=utf-8", route ? "Not allowed.\n" : "Not found.\n");
      return;
    }
    const context: PageContext = {
      url,
      form,
      viewer,
      csrf: session?.csrf ?? "",
      services: this.services,
      now: (this.services.now ?? Date.now)(),
    };
    let result: PageResult;
    try {
      result = await handler(context);
    } catch (error) {
      if (hasCode(error, "not_found"))
        return this.page(res, context, { kind: "html", status: 404, title: "Not found", path, body: html`<p>${error.message}</p>` });
      if (hasCode(error, "forbidden"))
        return this.page(res, context, { kind: "html", status: 403, title: "Not yours", path, body: html`<p>${error.message}</p>` });
      throw error;
    }
    this.page(res, context, result);
  }

  private page(res: ServerResponse, context: PageContext, result: PageResult): void {
    if (result.kind === "redirect") return redirect(res, result.location);
    if (result.kind === "data") {
      const headers: Record<string, string> = result.filename ? { "content-disposition": `attachment; filename="${result.filename}"` } : {};
      return send(res, 200, result.contentType, result.body, headers);
    }
    send(res, result.status ?? 200, "text/html; charset=utf-8", layout(result.title, result.path, result.body, context.csrf));
  }

  private startSignIn(res: ServerResponse, provider: SignInProvider): void {
    const state = randomBytes(24).toString("base64url");
    const now = Date.now();
    for (const [old, until] of this.states) if (until <= now || this.states.size >= MAX_STATES) this.states.delete(old);
    this.states.set(state, now + STATE_MS);
    // Lax, not Strict: the platform's page sends the browser back here from another site.
    const cookie = `${STATE_COOKIE}=${state}; Path=/login; HttpOnly; SameSite=Lax; Max-Age=${STATE_MS / 1000}${this.secure ? "; Secure" : ""}`;
    redirect(res, provider.authorizeUrl(state, this.redirectUri(provider)), { "set-cookie": cookie });
  }

  private redirectUri(provider: SignInProvider): string {
    return `${this.base}/login/${provider.name}/callback`;
  }

  /** The platform's answer: the state must be the one this browser started with; the code is exchanged for who signed in. */
  private async callback(req: IncomingMessage, res: ServerResponse, url: URL, provider: SignInProvider): Promise<void> {
    const address = req.socket.remoteAddress ?? "unknown";
    const state = url.searchParams.get("state") ?? "";
    const code = url.searchParams.get("code");
    const until = this.states.get(state);
    this.states.delete(state);
    if (!this.limiter.allows(address)) {
      send(res, 429, "text/html; charset=utf-8", this.loginPage("Too many sign-in attempts: wait a quarter of an hour and try again."));
      return;
    }
    if (!code || until === undefined || until <= Date.now() || !sameSecret(cookieOf(req, STATE_COOKIE), state)) {
      this.limiter.failed(address);
      send(res, 400, "text/html; charset=utf-8", this.loginPage(`That sign-in did not start here or took too long: try "${provider.label}" again.`));
      return;
    }
    let identity: PlatformIdentity;
    try {
      identity = await provider.identify(code, this.redirectUri(provider));
    } catch (error) {
      if (!hasCode(error, "sign_in_failed")) throw error;
      this.limiter.failed(address);
      this.services.logger.warn({ err: error, provider: provider.name }, "a console sign-in through a platform failed");
      send(res, 502, "text/html; charset=utf-8", this.loginPage(`${provider.label} did not work this time; the bot's log says why.`));
      return;
    }
    const session = await this.sessions.create({ ...identity, operator: false });
    this.services.logger.info({ provider: provider.name, userId: identity.userId }, "signed in to the console");
    // A page of our own, not a redirect: the browser came from the platform's site, and sends the
    // Strict session cookie only on a navigation that starts here.
    send(res, 200, "text/html; charset=utf-8", continuePage(), {
      "set-cookie": [this.sessions.cookie(session, this.secure), `${STATE_COOKIE}=; Path=/login; HttpOnly; SameSite=Lax; Max-Age=0`],
    });
  }

  private loginPage(problem?: string): string {
    return loginPage(this.settings.token !== undefined, this.settings.providers, problem);
  }

  private async login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === "GET") {
      send(res, 200, "text/html; charset=utf-8", this.loginPage());
      return;
    }
    if (req.method !== "POST") {
      send(res, 405, "text/plain; charset=utf-8", "Not allowed.\n");
      return;
    }
    const address = req.socket.remoteAddress ?? "unknown";
    if (!this.limiter.allows(address)) {
      send(res, 429, "text/html; charset=utf-8", this.loginPage("Too many sign-in attempts: wait a quarter of an hour and try again."), {
        "retry-after": "900",
      });
      return;
    }
    const form = await readForm(req);
    const token = form?.get("token") ?? undefined;
    if (!this.settings.token || !sameSecret(token, this.settings.token)) {
      this.limiter.failed(address);
      this.services.logger.warn({ from: address }, "a console sign-in with a wrong token");
      send(res, 401, "text/html; charset=utf-8", this.loginPage("That token is not the console's."));
      return;
    }
    const session = await this.sessions.create(OPERATOR);
    redirect(res, "/", { "set-cookie": this.sessions.cookie(session, this.secure) });
  }
}

function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  res.writeHead(303, { ...SECURITY_HEADERS, location, ...headers });
  res.end();
}

function loginPage(token: boolean, providers: readonly SignInProvider[], problem?: string): string {
  const body = html`${problem ? html`<p class="problem" role="alert">${problem}</p>` : ""}
${providers.map((provider) => html`<p><a class="sign-in" href="/login/${provider.name}">${provider.label}</a></p>`)}
${
  token
    ? html`<form method="post" action="/login" class="login">
<label>Console token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button>
</form>`
    : ""
}`;
  return layout("Sign in", "/login", body);
}

function continuePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>Signed in</title></head><body><p><a href="/">Continue to the console</a></p></body></html>`;
}

/** Reads a urlencoded form, at most MAX_FORM_BYTES and FORM_TIMEOUT_MS; undefined when it is larger. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => req.destroy(new Error("the form took too long")), FORM_TIMEOUT_MS);
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) return undefined;
      chunks.push(chunk);
    }
  } finally {
    clearTimeout(timer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
