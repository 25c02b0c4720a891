import http from "node:http";
import https from "node:https";

/*
 * A request over node:http/node:https answered as a fetch Response (what the clients read of one):
 * the core of keepAliveFetch, and of a plain-http request forwarded through a proxy.
 */

/** The body as bytes or text, `null` for none, or undefined when this transport cannot send it. */
export function requestBody(body: RequestInit["body"]): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/**
 * Sends the request to `url`, or, with `via` (a proxy, for a plain-http address), to the proxy with
 * the whole address as its target, as HTTP proxies take it.
 */
export function send(
  url: URL,
  init: RequestInit,
  body: string | Uint8Array | null,
  agent: http.Agent,
  via?: { proxy: URL; headers: http.OutgoingHttpHeaders },
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const method = init.method ?? "GET";
    const headers = headersOf(init.headers, body);
    const request = via
      ? http.request({
          host: via.proxy.hostname,
          port: via.proxy.port || 80,
          path: url.href,
          method,
          headers: { host: url.host, ...headers, ...via.headers },
          agent,
        })
      : (url.protocol === "https:" ? https : http).request(url, { method, headers, agent });
    let response: http.IncomingMessage | undefined;
    const onAbort = () => {
      const error = abortError(signal!);
      // Before the response this rejects the fetch; after it, whoever reads the body gets the error.
      if (response) response.destroy(error);
      request.destroy(error);
    };
    const release = () => signal?.removeEventListener("abort", onAbort);
    signal?.addEventListener("abort", onAbort, { once: true });
    // The agent's timeout only reports a silent connection; the request ends here, body and all.
    request.on("timeout", () => {
      const error = new Error(`no data from ${url.host} for too long`);
      if (response) response.destroy(error);
      request.destroy(error);
    });
    request.on("error", (error) => {
      release();
      reject(error.name === "AbortError" ? error : new TypeError("fetch failed", { cause: error }));
    });
    request.once("response", (incoming) => {
      response = incoming;
      // The signal stays on until the body is read, closed or destroyed.
      incoming.once("close", release);
      if (/^text\/event-stream\b/i.test(incoming.headers["content-type"] ?? "")) {
        resolve(new NodeResponse(url, incoming) as unknown as Response);
        return;
      }
      // Any other answer is read whole before the fetch resolves: a caller that never reads a body
      // (Slack's client on a 429) would otherwise keep its connection out of the pool for good.
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.once("end", () => resolve(new NodeResponse(url, incoming, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)) as unknown as Response));
      incoming.once("error", (error) => reject(signal?.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: error })));
      incoming.once("close", () => {
        if (!incoming.complete) reject(new TypeError("fetch failed: the connection closed before the answer ended"));
      });
    });
    request.end(body ?? undefined);
  });
}

function headersOf(headers: RequestInit["headers"], body: string | Uint8Array | null): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(headers)) for (const [name, value] of headers) out[name!.toLowerCase()] = value;
  else if (headers) for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = value;
  if (body !== null) out["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  return out;
}

/** What a real fetch rejects with when its signal aborts: the signal's reason, or an AbortError. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

/**
 * The part of a fetch Response the clients read. A stream of server-sent events keeps the incoming
 * message as its `body`: async iterable of byte chunks, and destroyed (freeing its socket) when
 * iteration stops early. Any other answer arrives already read (`bytes`).
 */
class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly headers: Headers;
  readonly redirected = false;
  readonly type = "basic";
  private used = false;

  readonly body: AsyncIterable<Uint8Array>;

  constructor(
    url: URL,
    incoming: http.IncomingMessage,
    private readonly read?: Buffer,
  ) {
    this.body = read ? oneChunk(read) : incoming;
    this.status = incoming.statusCode ?? 0;
    this.statusText = incoming.statusMessage ?? "";
    this.ok = this.status >= 200 && this.status < 300;
    this.url = url.href;
    this.headers = new Headers();
    const raw = incoming.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) this.headers.append(raw[i]!, raw[i + 1]!);
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  private async bytes(): Promise<Buffer> {
    if (this.used) throw new TypeError("Body is unusable: Body has already been read");
    this.used = true;
    if (this.read) return this.read;
    const chunks: Buffer[] = [];
    for await (const chunk of this.body) chunks.push(chunk as Buffer);
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }
}

async function* oneChunk(bytes: Buffer): AsyncIterable<Uint8Array> {
  yield bytes;
}
