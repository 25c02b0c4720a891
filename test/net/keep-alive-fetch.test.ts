import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { webApi } from "@slack/bolt";
import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { retryDelayMs } from "../../src/agent/model-retry.js";
import { classifyOpenAIError } from "../../src/agent/providers/openai/errors.js";
import { keepAliveFetch } from "../../src/net/keep-alive-fetch.js";
import { closeServer } from "../fakes/close-server.js";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A model server whose every answer the test writes by hand; it counts the connections it accepted. */
class HandServer {
  handler: Handler = (_request, _body, response) => response.end();
  readonly sockets: Socket[] = [];
  readonly bodies: { headers: IncomingMessage["headers"]; body: string }[] = [];
  private server?: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      this.bodies.push({ headers: request.headers, body });
      this.handler(request, body, response);
    });
    this.server.on("connection", (socket: Socket) => this.sockets.push(socket));
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

const completion = (content: string) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, refusal: null } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

const clientFor = (server: HandServer) => new OpenAI({ apiKey: "sk-test", baseURL: server.url, maxRetries: 0, timeout: 10_000, fetch: keepAliveFetch() });
const ask = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

/** A promise and its resolver, for a server that waits on the test. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("the keep-alive fetch the model and Slack clients use", () => {
  let server: HandServer;
  afterEach(() => server.close());

  it("sends the request's method, headers and body, reads JSON answers, and reuses one connection", async () => {
    server = await new HandServer().start();
    server.handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "application/json", "x-request-id": "req_1" });
      response.end(completion("hello"));
    };
    const client = clientFor(server);

    const first = await client.chat.completions.create(ask);
    const second = await client.chat.completions.create({ ...ask, messages: [{ role: "user", content: "naïve ✓" }] });

    expect(first.choices[0]!.message.content).toBe("hello");
    expect(second.choices[0]!.message.content).toBe("hello");
    expect(server.bodies[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(server.bodies[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.bodies[1]!.body).messages[0].content).toBe("naïve ✓");
    expect(server.sockets).toHaveLength(1);
  });

  it("streams server-sent events as they arrive, not when the response ends", async () => {
    server = await new HandServer().start();
    const secondPart = gate();
    server.handler = async (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk("Hel"));
      // The rest only once the client has read the first part.
      await secondPart.opened;
      response.end(`${chunk("lo")}data: [DONE]\n\n`);
    };
    const stream = await clientFor(server).chat.completions.create({ ...ask, stream: true });

    const parts: string[] = [];
    for await (const event of stream) {
      parts.push(event.choices[0]!.delta.content ?? "");
      secondPart.open();
    }

    expect(parts).toEqual(["Hel", "lo"]);
  });

  it("aborting mid-body rejects the reader and closes the connection", async () => {
    server = await new HandServer().start();
    const served = gate();
    let closed: Promise<unknown> = Promise.resolve();
    server.handler = (_request, _body, response) => {
      closed = once(response, "close");
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk("Hel"));
      served.open();
    };
    const controller = new AbortController();
    const response = await keepAliveFetch()(`${server.url}/chat/completions`, { method: "POST", body: "{}", signal: controller.signal });
    await served.opened;

    const reading = (async () => {
      for await (const _part of response.body as unknown as AsyncIterable<Uint8Array>) controller.abort();
    })();

    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
    await closed;
    expect(server.sockets[0]!.destroyed).toBe(true);
  });

  it("aborting before the response rejects the fetch with an AbortError and closes the connection", async () => {
    server = await new HandServer().start();
    const received = gate();
    server.handler = () => received.open();
    const controller = new AbortController();

    const fetching = keepAliveFetch()(`${server.url}/chat/completions`, { method: "POST", body: "{}", signal: controller.signal });
    await received.opened;
    controller.abort();

    await expect(fetching).rejects.toMatchObject({ name: "AbortError" });
    await once(server.sockets[0]!, "close");
  });

  it("a turn's abort through the openai client is a user abort, not a timeout", async () => {
    server = await new HandServer().start();
    const received = gate();
    server.handler = () => received.open();
    const controller = new AbortController();

    const asking = clientFor(server).chat.completions.create(ask, { signal: controller.signal });
    await received.opened;
    controller.abort();

    await expect(asking).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
  });

  it("passes error statuses, their bodies and Retry-After through to the client's errors", async () => {
    server = await new HandServer().start();
    const answers = [
      { status: 429, headers: { "content-type": "application/json", "retry-after": "7" }, body: JSON.stringify({ error: { message: "slow down" } }) },
      { status: 503, headers: { "content-type": "text/plain" }, body: "overloaded" },
    ];
    server.handler = (_request, _body, response) => {
      const next = answers.shift()!;
      response.writeHead(next.status, next.headers);
      response.end(next.body);
    };
    const client = clientFor(server);

    const limited = await client.chat.completions.create(ask).catch((error: unknown) => error);
    const overloaded = await client.chat.completions.create(ask).catch((error: unknown) => error);

    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.APIError>).message).toContain("slow down");
    expect(retryDelayMs(classifyOpenAIError(limited), 0, { maxRetries: 1, maxDelayMs: 60_000 })).toBe(7_000);
    expect(overloaded).toMatchObject({ status: 503 });
    expect((overloaded as InstanceType<typeof OpenAI.APIError>).message).toContain("overloaded");
  });

  it("a server that is not there is a connection error", async () => {
    server = await new HandServer().start();
    const url = server.url;
    await server.close();

    const error = await new OpenAI({ apiKey: "x", baseURL: url, maxRetries: 0, fetch: keepAliveFetch() }).chat.completions.create(ask).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(error).not.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it("opens at most its pool's connections to a server: further requests wait for a free one", async () => {
    server = await new HandServer().start();
    const held: ServerResponse[] = [];
    server.handler = (_request, _body, response) => {
      response.setHeader("content-type", "application/json");
      held.push(response);
      // The second request to arrive frees the first's connection for the third, which ends them all.
      if (held.length === 2) held[0]!.end(completion("first"));
      if (held.length === 3) for (const waiting of held.slice(1)) waiting.end(completion("later"));
    };
    const client = new OpenAI({ apiKey: "x", baseURL: server.url, maxRetries: 0, fetch: keepAliveFetch(2) });

    const answers = await Promise.all([1, 2, 3].map(() => client.chat.completions.create(ask)));

    expect(answers.map((answer) => answer.choices[0]!.message.content).sort()).toEqual(["first", "later", "later"]);
    expect(server.sockets).toHaveLength(2);
  });

  it("serves Slack's Web API client: form bodies, answers, rate limits with their wait, HTTP errors", async () => {
    server = await new HandServer().start();
    let status = 200;
    server.handler = (_request, _body, response) => {
      if (status === 429) response.writeHead(429, { "retry-after": "7" }).end();
      else if (status === 503) response.writeHead(503, "Service Unavailable", { "content-type": "text/plain" }).end("down for maintenance");
      else response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, channel: "C1", ts: "1.2" }));
    };
    const client = new webApi.WebClient("xoxb-test", {
      slackApiUrl: `${server.url}/`,
      fetch: keepAliveFetch(),
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });

    const posted = await client.chat.postMessage({ channel: "C1", text: "naïve ✓ & more" });
    expect(posted).toMatchObject({ ok: true, ts: "1.2" });
    const sent = new URLSearchParams(server.bodies[0]!.body);
    expect(sent.get("text")).toBe("naïve ✓ & more");
    expect(server.bodies[0]!.headers.authorization).toBe("Bearer xoxb-test");

    status = 429;
    await expect(client.chat.postMessage({ channel: "C1", text: "again" })).rejects.toMatchObject({ code: "slack_webapi_rate_limited_error", retryAfter: 7 });
    status = 503;
    await expect(client.chat.postMessage({ channel: "C1", text: "again" })).rejects.toMatchObject({
      code: "slack_webapi_http_error",
      statusCode: 503,
      statusMessage: "Service Unavailable",
      body: "down for maintenance",
    });
    expect(server.sockets).toHaveLength(1);
  });

  it("fails a request whose server goes silent, before its answer or in the middle of its body, and gives the connection up", async () => {
    server = await new HandServer().start();
    let part = 0;
    server.handler = (_request, _body, response) => {
      // the first request never gets an answer; the second gets its headers and half a body
      if (++part === 2) response.writeHead(200, { "content-type": "application/json" }).write('{"ok":');
    };
    const fetchWithShortSilence = keepAliveFetch(4, 150);

    const started = Date.now();
    await expect(fetchWithShortSilence(`${server.url}/api/auth.test`, { method: "POST", body: "a=1" })).rejects.toThrow(/fetch failed/);
    await expect(fetchWithShortSilence(`${server.url}/api/auth.test`, { method: "POST", body: "a=1" })).rejects.toThrow(/fetch failed/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await vi.waitFor(() => expect(server.sockets.every((socket) => socket.destroyed)).toBe(true));
  });
});
