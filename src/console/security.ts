import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { ConsoleSessionStore } from "../store/console-session-store.js";
import type { Viewer } from "./viewer.js";

/** Headers on every answer: no inline script or style, no framing, nothing cached or leaked in a referrer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export const SESSION_COOKIE = "console_session";

export interface Session {
  id: string;
  csrf: string;
  viewer: Viewer;
  expiresAt: number;
}

/**
 * Sessions in the store, shared by every process on the database: a sign-in through one is good in
 * all, and a sign-out ends it in all. The store keeps the SHA-256 of the cookie's secret, never the
 * secret; the CSRF token is derived from the secret (an HMAC), so it is not kept either.
 */
export class Sessions {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async create(viewer: Viewer): Promise<Session> {
    const id = token();
    const now = this.now();
    const expiresAt = now + this.lifetimeMs;
    await this.store.create(hashOf(id), JSON.stringify(viewer), now, expiresAt);
    return { id, csrf: csrfOf(id), viewer, expiresAt };
  }

  async get(id: string | undefined): Promise<Session | undefined> {
    if (!id) return undefined;
    const stored = await this.store.get(hashOf(id), this.now());
    const viewer = stored && viewerOf(stored.viewerJson);
    return viewer && { id, csrf: csrfOf(id), viewer, expiresAt: stored.expiresAt };
  }

  async end(id: string): Promise<void> {
    await this.store.end(hashOf(id));
  }

  /** The cookie that carries a session: HttpOnly, SameSite=Strict, Secure under https, gone when the session ends. */
  cookie(session: Session, secure: boolean): string {
    // Rounded up: the browser may keep the cookie up to a second past the session, which the server ends anyway.
    const maxAge = Math.max(0, Math.ceil((session.expiresAt - this.now()) / 1000));
    return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
  }
}

/** What the store keeps of a session's secret. */
const hashOf = (id: string): string => createHash("sha256").update(id).digest("hex");
const csrfOf = (id: string): string => createHmac("sha256", id).update("console csrf").digest("base64url");

/** A viewer as the store keeps it; a row that does not read as one is no session. */
function viewerOf(json: string): Viewer | undefined {
  try {
    const value = JSON.parse(json) as Partial<Viewer>;
    if (typeof value.userId !== "string" || typeof value.operator !== "boolean") return undefined;
    return value as Viewer;
  } catch {
    return undefined;
  }
}

export const clearedCookie = (secure: boolean) => `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;

const token = () => randomBytes(32).toString("base64url");

/** Compares secrets in constant time (a token, a CSRF value). */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
}

/** Failed sign-ins per address: this many in a window, then every attempt is refused until the window has passed. */
const ATTEMPTS = 10;
const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

export class SignInLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** False while `address` is over the limit of failed attempts. */
  allows(address: string): boolean {
    const seen = this.failures.get(address);
    if (seen && this.now() - seen.since >= WINDOW_MS) this.failures.delete(address);
    return (this.failures.get(address)?.count ?? 0) < ATTEMPTS;
  }

  failed(address: string): void {
    const seen = this.failures.get(address);
    if (seen) {
      seen.count++;
      return;
    }
    if (this.failures.size >= MAX_TRACKED) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(address, { count: 1, since: this.now() });
  }
}

/** An address as a Host header or a URL writes it: an IPv6 address in brackets. */
export const hostName = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The Host names the console answers to (against DNS rebinding: a page of another site whose name
 * now points at this address may not read the console): its own address and port, loopback's
 * names when it is on loopback, and the host of CONSOLE_PUBLIC_URL.
 */
export function allowedHosts(bindHost: string, port: number, publicUrl?: string): Set<string> {
  const hosts = new Set<string>([`${hostName(bindHost)}:${port}`.toLowerCase()]);
  if (isLoopback(bindHost)) for (const name of ["127.0.0.1", "localhost", "[::1]"]) hosts.add(`${name}:${port}`);
  if (publicUrl) hosts.add(new URL(publicUrl).host.toLowerCase());
  return hosts;
}
