import http from "node:http";
import https from "node:https";
import { requestBody, send } from "./node-request.js";
import { netFetch, proxiedFetch } from "./proxied-fetch.js";
import { proxyFor } from "./proxy.js";

/** At most this many connections per server; more requests at once wait for a free one. */
const MAX_SOCKETS_PER_SERVER = 128;
/**
 * A connection silent this long fails its request, as undici's fetch (what the clients would use
 * otherwise) fails after 300 s without headers or body data: a caller without a deadline of its
 * own (Bolt's client makes some calls without one) must not wait forever. Callers set shorter ones.
 */
const SILENT_CONNECTION_MS = 300_000;
/** Idle connections kept open for the next request, per server. */
const MAX_IDLE_SOCKETS_PER_SERVER = 32;

type Fetch = typeof globalThis.fetch;

/** The global fetch as Node provides it, seen before anything could replace it. */
const builtinFetch = globalThis.fetch;

/**
 * The `fetch` for the clients the bot calls on every turn (the openai client, Slack's Web API
 * client): `keepAliveFetch()`, unless something replaced the global fetch before the client was
 * made (a test double, an interceptor), in which case undefined: the client then uses that one.
 */
export function clientFetch(): Fetch | undefined {
  return globalThis.fetch === builtinFetch ? keepAliveFetch() : undefined;
}

/**
 * A `fetch` over `node:http`/`node:https` with a bounded pool of keep-alive connections. It costs
 * about a quarter less CPU per request than the global fetch (undici's, even with its own Agent),
 * which is most of what a turn costs us with a fast model. It serves what those clients send
 * (string or byte bodies) and what they read: status, headers, and a body read whole
 * (`json()`, `text()`, `arrayBuffer()`) or piece by piece (`body` is async iterable, which is how
 * the openai client reads a stream of server-sent events). Redirects are not followed (the caller
 * sees the 3xx). Aborting the request's signal, before the response or mid-body, destroys the
 * socket and rejects what waits on it. Any other body (a form, URLSearchParams, a stream), whose
 * content type fetch would add itself, goes through the global fetch. A request HTTPS_PROXY or
 * HTTP_PROXY applies to goes through the proxy (see proxy.ts).
 */
export function keepAliveFetch(maxSockets = MAX_SOCKETS_PER_SERVER, silentMs = SILENT_CONNECTION_MS): Fetch {
  const pool = {
    keepAlive: true,
    maxSockets,
    maxFreeSockets: Math.min(maxSockets, MAX_IDLE_SOCKETS_PER_SERVER),
    scheduling: "lifo" as const,
    timeout: silentMs,
  };
  const agents = { "http:": new http.Agent(pool), "https:": new https.Agent(pool) };
  return ((input: string | URL | Request, init: RequestInit = {}) => {
    const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
    const body = requestBody(init.body);
    if (!url || body === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) return netFetch(input, init);
    const proxy = proxyFor(url);
    if (proxy) return proxiedFetch(proxy, url, init);
    return send(url, init, body, url.protocol === "https:" ? agents["https:"] : agents["http:"]);
  }) as Fetch;
}
