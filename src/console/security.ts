import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
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

/** Sessions live in this process (a restart signs everyone out); at most this many at once, the oldest dropped first. */
const MAX_SESSIONS = 1_000;

export class Sessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create(viewer: Viewer): Session {
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const session = { id: token(), csrf: token(), viewer, expiresAt: this.now() + this.lifetimeMs };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.sessions.get(id);
    if (session && session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  end(id: string): void {
    this.sessions.delete(id);
  }

  /** The cookie that carries a session: HttpOnly, SameSite=Strict, Secure under https, gone when the session ends. */
  cookie(session: Session, secure: boolean): string {
    // Rounded up: the browser may keep the cookie up to a second past the session, which the server ends anyway.
    const maxAge = Math.max(0, Math.ceil((session.expiresAt - this.now()) / 1000));
    return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
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
