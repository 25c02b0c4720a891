import http from "node:http";
import { requestBody, send } from "./node-request.js";
import { proxyFor } from "./proxy.js";

/*
 * Requests that go through a proxy: https through a CONNECT tunnel (undici's ProxyAgent; the proxy
 * sees the host and port, never the content), plain http forwarded with its whole address as the
 * target, as HTTP proxies take it (many allow CONNECT to port 443 only). undici is loaded only
 * once an https request is proxied.
 */

type Fetch = typeof globalThis.fetch;

/** `fetch` for the bot's requests: through the proxy where one applies, else the global fetch (looked up at each call). */
export const netFetch: Fetch = (input, init) => {
  const url = addressOf(input);
  const proxy = url && proxyFor(url);
  return proxy ? proxiedFetch(proxy, input, init) : globalThis.fetch(input, init);
};

/** Connections to the proxies for forwarded plain-http requests, kept open for the next (as keepAliveFetch's are). */
const forwarding = new http.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 32, scheduling: "lifo", timeout: 300_000 });

const loadUndici = () => import("undici");
type Undici = Awaited<ReturnType<typeof loadUndici>>;
let undici: Promise<Undici> | undefined;
const tunnels = new Map<string, InstanceType<Undici["ProxyAgent"]>>();

/** The request, sent through `proxy` (an http:// or https:// URL, perhaps with a user and password). */
export function proxiedFetch(proxy: string, input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = addressOf(input);
  if (url?.protocol === "http:" && !(input instanceof Request)) return forward(url, new URL(proxy), init);
  return tunnel(proxy, input, init);
}

/** Through a CONNECT tunnel, by undici's own fetch (not Node's: its ProxyAgent fits it whatever Node's version). */
async function tunnel(proxy: string, input: string | URL | Request, init: RequestInit): Promise<Response> {
  const { fetch, ProxyAgent } = await (undici ??= loadUndici());
  let agent = tunnels.get(proxy);
  if (!agent) tunnels.set(proxy, (agent = new ProxyAgent(proxy)));
  if (input instanceof Request) {
    // A Request of Node's own fetch is not one of this undici's: sent as its parts.
    const body = input.body ? await input.arrayBuffer() : undefined;
    init = { method: input.method, headers: input.headers, body, signal: input.signal, ...init };
    input = input.url;
  }
  return (await fetch(input, { ...(init as Parameters<Undici["fetch"]>[1]), dispatcher: agent })) as unknown as Response;
}

/** A plain-http request handed to the proxy whole; a body this transport cannot send goes through a tunnel instead. */
function forward(url: URL, proxy: URL, init: RequestInit): Promise<Response> {
  let body = requestBody(init.body);
  let headers = init.headers;
  if (init.body instanceof URLSearchParams) {
    body = init.body.toString();
    const withType = new Headers(init.headers);
    if (!withType.has("content-type")) withType.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    headers = withType;
  }
  if (body === undefined) return tunnel(proxy.href, url, init);
  const authorization = proxy.username ? { "proxy-authorization": basic(proxy) } : {};
  return send(url, { ...init, headers }, body, forwarding, { proxy, headers: authorization }).then(asWebResponse);
}

/** keepAliveFetch's light response as a whole web Response, whose body callers may also read as a web stream (boundedFetch does). */
function asWebResponse(response: Response): Response {
  const empty = response.status === 204 || response.status === 205 || response.status === 304;
  const body = empty ? null : ReadableStream.from(response.body as unknown as AsyncIterable<Uint8Array>);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const basic = (proxy: URL) => `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")}`;

function addressOf(input: string | URL | Request): URL | undefined {
  if (input instanceof URL) return input;
  try {
    return new URL(typeof input === "string" ? input : input.url);
  } catch {
    return undefined;
  }
}
