import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.js";

/** A request as the fake service received it. */
export interface ServedRequest {
  method: string;
  url: URL;
  /** The query string exactly as sent, to check how it was encoded. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer =
  | { kind: "body"; status: number; contentType: string; body: Buffer; chunkBytes?: number; delayMs?: number; headers?: Record<string, string> }
  /** Streams chunks forever, without a content-length, until the client goes away. */
  | { kind: "endless"; contentType: string }
  /** Sends the headers, then one byte every `intervalMs` for ever: a slow-loris host. */
  | { kind: "trickle"; contentType: string; intervalMs: number };

export type Route = (request: ServedRequest) => Answer;

const FIXTURES = new URL("../fixtures/knowledge/", import.meta.url);

/** Answers a local service would give, built from hand-written fixtures in the services' real formats. */
export const answer = {
  fixture: (name: string, contentType: string, extra: Partial<Extract<Answer, { kind: "body" }>> = {}): Answer => ({
    kind: "body",
    status: 200,
    contentType,
    body: readFileSync(new URL(name, FIXTURES)),
    ...extra,
  }),
  text: (status: number, body: string, contentType = "text/plain; charset=utf-8", headers?: Record<string, string>): Answer => ({
    kind: "body",
    status,
    contentType,
    body: Buffer.from(body),
    headers,
  }),
  slow: (delayMs: number, inner: Answer): Answer => (inner.kind === "body" ? { ...inner, delayMs } : inner),
  endless: (contentType = "text/html"): Answer => ({ kind: "endless", contentType }),
  trickle: (contentType = "image/png", intervalMs = 200): Answer => ({ kind: "trickle", contentType, intervalMs }),
};

/** A local HTTP service on 127.0.0.1 whose answers each test chooses; it records every request. */
export class FakeHttpServer {
  readonly requests: ServedRequest[] = [];
  route: Route = () => answer.text(404, "no route");
  private server?: Server;
  private readonly open = new Set<ServerResponse>();
  origin = "";

  static async start(): Promise<FakeHttpServer> {
    const fake = new FakeHttpServer();
    fake.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? "/", fake.origin);
      const request: ServedRequest = {
        method: req.method ?? "GET",
        url,
        rawQuery: (req.url ?? "").split("?")[1] ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      fake.requests.push(request);
      fake.open.add(res);
      res.on("close", () => fake.open.delete(res));
      await sendAnswer(res, fake.route(request));
    });
    await new Promise<void>((resolve) => fake.server!.listen(0, "127.0.0.1", resolve));
    fake.origin = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    await closeServer(this.server);
  }
}

/** Writes an answer as a service would; the endless and trickling ones last until the client goes away. */
export async function sendAnswer(res: ServerResponse, reply: Answer): Promise<void> {
  if (reply.kind === "endless") {
    res.writeHead(200, { "content-type": reply.contentType });
    const chunk = Buffer.alloc(64 * 1024, "x");
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
    return;
  }
  if (reply.kind === "trickle") {
    res.writeHead(200, { "content-type": reply.contentType });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write("x")), reply.intervalMs);
    res.on("close", () => clearInterval(timer));
    return;
  }
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (res.destroyed) return;
  res.writeHead(reply.status, { "content-type": reply.contentType, ...reply.headers });
  const size = reply.chunkBytes ?? reply.body.length;
  for (let offset = 0; offset < reply.body.length && !res.destroyed; offset += size) {
    res.write(reply.body.subarray(offset, offset + size));
    if (reply.chunkBytes) await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}
