import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.js";

/** The question of a request as the model received it: its text, and the images sent as image parts. */
export interface ReceivedQuestion {
  text: string;
  images: { mediaType: string; bytes: Buffer }[];
}

/** A chat completion request as the fake received it. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
  /** For a streamed answer: when each chunk was written (`performance.now()`), the usage chunk last. */
  chunksAt: number[];
}

/**
 * How a streamed answer is sent (a request with `stream: true`): its text in these pieces (by
 * default all of it in one), each after `delayMs`; `breakAfter` pieces and the connection drops,
 * `stallAfter` pieces and nothing more comes, `errorAfter` pieces and an error event ends the stream
 * (as OpenAI reports an error that happens once the answer has begun).
 */
export interface StreamShape {
  pieces?: string[];
  delayMs?: number;
  breakAfter?: number;
  stallAfter?: number;
  errorAfter?: number;
}

export type FakeResponse =
  | { kind: "message"; content: string | null; toolCalls?: { id: string; name: string; arguments: string }[]; usage?: Usage; stream?: StreamShape }
  | { kind: "http"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "hang" };

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type Responder = (request: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

let callCounter = 0;

/** Helpers that build what the fake answers. */
export const reply = {
  text:
    (content: string, usage?: Usage): Responder =>
    () => ({ kind: "message", content, usage }),
  toolCalls:
    (...calls: { name: string; args: unknown; rawArguments?: string }[]): Responder =>
    () => ({
      kind: "message",
      content: null,
      toolCalls: calls.map((call) => ({
        id: `call_${++callCounter}`,
        name: call.name,
        arguments: call.rawArguments ?? JSON.stringify(call.args),
      })),
    }),
  status:
    (status: number, message = "fake error", headers?: Record<string, string>): Responder =>
    () => ({
      kind: "http",
      status,
      body: { error: { message, type: "server_error", code: null } },
      headers,
    }),
  hang: (): Responder => () => ({ kind: "hang" }),
  /** Text sent in pieces when the request streams (as one message when it does not). */
  streamed:
    (pieces: string[], shape: Omit<StreamShape, "pieces"> & { usage?: Usage } = {}): Responder =>
    () => ({
      kind: "message",
      content: pieces.join(""),
      usage: shape.usage,
      stream: { ...shape, pieces },
    }),
  delayed:
    (ms: number, responder: Responder): Responder =>
    async (request) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return responder(request);
    },
};

/**
 * A local OpenAI-compatible server for tests: answers POST /v1/chat/completions from a script
 * (one responder per request, in order; then the fallback), records every request, and
 * lists one model at GET /v1/models.
 */
export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Responder[] = [];
  private fallback: Responder = reply.text("(the fake model has no scripted answer left)");
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  url = "";

  static async start(): Promise<FakeOpenAI> {
    const fake = new FakeOpenAI();
    await fake.listen();
    return fake;
  }

  /** Queues responders for the next requests, in order. */
  script(...responders: Responder[]): this {
    this.queue.push(...responders);
    return this;
  }

  /** The responder used once the script is spent. */
  otherwise(responder: Responder): this {
    this.fallback = responder;
    return this;
  }

  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.path.endsWith("/chat/completions"));
  }

  /** The last user message of the n-th chat request: its text parts joined, its image parts decoded. */
  question(index: number): ReceivedQuestion {
    const messages: { role: string; content: unknown }[] = this.chatRequests[index]?.body.messages ?? [];
    const content = messages.filter((message) => message.role === "user").at(-1)?.content;
    if (typeof content === "string") return { text: content, images: [] };
    const parts = (content ?? []) as { type: string; text?: string; image_url?: { url: string } }[];
    const images = parts.flatMap((part) => {
      if (part.type !== "image_url") return [];
      const url = part.image_url?.url ?? "";
      const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
      // An address instead of the bytes shows up as such, so a test comparing images fails on it.
      return [match ? { mediaType: match[1]!, bytes: Buffer.from(match[2]!, "base64") } : { mediaType: `(an address: ${url})`, bytes: Buffer.alloc(0) }];
    });
    return { text: parts.flatMap((part) => (part.type === "text" ? [part.text ?? ""] : [])).join("\n"), images };
  }

  /** Tool names offered in the n-th chat request. */
  toolsOffered(index: number): string[] {
    return (this.chatRequests[index]?.body.tools ?? []).map((tool: any) => tool.function.name);
  }

  /** The ids of the tool calls the n-th chat request sends back as the assistant's, in order. */
  toolCallIds(index: number): string[] {
    const messages: any[] = this.chatRequests[index]?.body.messages ?? [];
    return messages.flatMap((message) => (message.role === "assistant" && message.tool_calls ? message.tool_calls.map((call: any) => call.id) : []));
  }

  /** The tool results the n-th chat request carries, in order. */
  toolResults(index: number): { callId: string; content: string }[] {
    const messages: any[] = this.chatRequests[index]?.body.messages ?? [];
    return messages.filter((message) => message.role === "tool").map((message) => ({ callId: message.tool_call_id, content: message.content }));
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    await closeServer(this.server);
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve) => {
      this.server!.listen(0, "127.0.0.1", () => {
        this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const recorded: RecordedRequest = { path: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined, chunksAt: [] };
    this.requests.push(recorded);

    if (req.method === "GET" && recorded.path.endsWith("/models")) {
      return json(res, 200, { object: "list", data: [{ id: "fake-model", object: "model", owned_by: "test" }] });
    }
    if (req.method !== "POST" || !recorded.path.endsWith("/chat/completions")) {
      return json(res, 404, { error: { message: "not found" } });
    }
    const responder = this.queue.shift() ?? this.fallback;
    const response = await responder(recorded);
    if (response.kind === "hang") {
      this.hanging.add(res);
      res.on("close", () => this.hanging.delete(res));
      return;
    }
    if (response.kind === "http") return json(res, response.status, response.body, response.headers);
    if (recorded.body?.stream === true) return this.stream(res, recorded, response);
    json(res, 200, completion(recorded.body?.model ?? "fake-model", response));
  }

  /** Server-sent events as OpenAI sends them: text and tool-call deltas, the finish reason, then usage. */
  private async stream(res: ServerResponse, recorded: RecordedRequest, message: Extract<FakeResponse, { kind: "message" }>): Promise<void> {
    const shape = message.stream ?? {};
    const model = recorded.body?.model ?? "fake-model";
    const id = `chatcmpl-${++callCounter}`;
    const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    const events: string[] = [chunk({ role: "assistant", content: "" })];
    const pieces = shape.pieces ?? (message.content ? [message.content] : []);
    for (const piece of pieces) events.push(chunk({ content: piece }));
    (message.toolCalls ?? []).forEach((call, index) => {
      const half = Math.ceil(call.arguments.length / 2);
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments.slice(0, half) } }] }));
      events.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
    });
    events.push(chunk({}, message.toolCalls?.length ? "tool_calls" : "stop"));
    if (recorded.body?.stream_options?.include_usage) {
      const usage = message.usage ?? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      events.push(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [], usage })}\n\n`);
    }
    events.push("data: [DONE]\n\n");

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    this.hanging.add(res);
    res.on("close", () => this.hanging.delete(res));
    for (const [index, event] of events.entries()) {
      // The first event only opens the message; pieces are counted from the first text.
      const piece = index - 1;
      if (shape.delayMs && index > 0) await new Promise((resolve) => setTimeout(resolve, shape.delayMs));
      // What was written before the break reaches the client first, as over a real connection that drops.
      if (shape.breakAfter !== undefined && piece === shape.breakAfter) return void res.write("", () => res.destroy());
      if (shape.stallAfter !== undefined && piece === shape.stallAfter) return;
      if (shape.errorAfter !== undefined && piece === shape.errorAfter) {
        return void res.end(
          `data: ${JSON.stringify({ error: { message: "The server had an error while processing your request.", type: "server_error" } })}\n\n`,
        );
      }
      if (res.destroyed) return;
      res.write(event);
      recorded.chunksAt.push(performance.now());
    }
    res.end();
  }
}

function completion(model: string, message: Extract<FakeResponse, { kind: "message" }>) {
  const toolCalls = message.toolCalls?.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${++callCounter}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: message.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls ? "tool_calls" : "stop",
      },
    ],
    usage: message.usage ?? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers });
  res.end(payload);
}
