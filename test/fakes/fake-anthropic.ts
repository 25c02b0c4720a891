import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.js";
import { reply, type FakeResponse, type ReceivedQuestion, type RecordedRequest, type Responder, type Usage } from "./fake-openai.js";

let messageCounter = 0;

/** Anthropic's error type for a status, as its API names them in the error body. */
function errorType(status: number): string {
  if (status === 529) return "overloaded_error";
  if (status === 429) return "rate_limit_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

/**
 * A local server speaking Anthropic's Messages API for tests: answers POST /v1/messages from a
 * script of the same responders as FakeOpenAI (reply.text, reply.toolCalls, reply.status,
 * reply.streamed, ...), so one scenario runs against both providers; a streamed answer comes as
 * the API's server-sent events (message_start, content blocks with text_delta and
 * input_json_delta, message_delta with the usage, message_stop). Lists one model at GET /v1/models.
 */
export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Responder[] = [];
  private fallback: Responder = reply.text("(the fake model has no scripted answer left)");
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  /** The base URL for the SDK (ANTHROPIC_BASE_URL): it adds /v1/messages. */
  url = "";

  static async start(): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic();
    await fake.listen();
    return fake;
  }

  script(...responders: Responder[]): this {
    this.queue.push(...responders);
    return this;
  }

  otherwise(responder: Responder): this {
    this.fallback = responder;
    return this;
  }

  /** The Messages API requests (named as FakeOpenAI's, so a scenario reads either). */
  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.path.endsWith("/v1/messages"));
  }

  /** The last user message's text blocks, joined, and its image blocks decoded (tool results are not the question). */
  question(index: number): ReceivedQuestion {
    const messages: { role: string; content: unknown }[] = this.chatRequests[index]?.body.messages ?? [];
    const content = messages.filter((message) => message.role === "user").at(-1)?.content;
    if (typeof content === "string") return { text: content, images: [] };
    const blocks = (content ?? []) as { type: string; text?: string; source?: { type: string; media_type: string; data: string } }[];
    const images = blocks.flatMap((block) => {
      if (block.type !== "image") return [];
      const source = block.source;
      return [
        source?.type === "base64"
          ? { mediaType: source.media_type, bytes: Buffer.from(source.data, "base64") }
          : { mediaType: "(not base64)", bytes: Buffer.alloc(0) },
      ];
    });
    return { text: blocks.flatMap((block) => (block.type === "text" ? [block.text ?? ""] : [])).join("\n"), images };
  }

  toolsOffered(index: number): string[] {
    return (this.chatRequests[index]?.body.tools ?? []).map((tool: any) => tool.name);
  }

  toolCallIds(index: number): string[] {
    return this.blocks(index, "assistant", "tool_use").map((block) => block.id);
  }

  toolResults(index: number): { callId: string; content: string }[] {
    return this.blocks(index, "user", "tool_result").map((block) => ({
      callId: block.tool_use_id,
      content: typeof block.content === "string" ? block.content : block.content.map((part: any) => part.text).join(""),
    }));
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    await closeServer(this.server);
  }

  private blocks(index: number, role: string, type: string): any[] {
    const messages: any[] = this.chatRequests[index]?.body.messages ?? [];
    return messages
      .filter((message) => message.role === role && Array.isArray(message.content))
      .flatMap((message) => message.content.filter((block: any) => block.type === type));
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve) => {
      this.server!.listen(0, "127.0.0.1", () => {
        this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
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

    if (req.method === "GET" && recorded.path.startsWith("/v1/models")) {
      return json(res, 200, {
        data: [{ id: "claude-test", type: "model", display_name: "Claude (fake)", created_at: "2025-01-01T00:00:00Z" }],
        has_more: false,
        first_id: "claude-test",
        last_id: "claude-test",
      });
    }
    if (req.method !== "POST" || !recorded.path.endsWith("/v1/messages")) {
      return json(res, 404, { type: "error", error: { type: "not_found_error", message: "not found" } });
    }
    const response = await (this.queue.shift() ?? this.fallback)(recorded);
    if (response.kind === "hang") {
      this.hanging.add(res);
      res.on("close", () => this.hanging.delete(res));
      return;
    }
    if (response.kind === "http") {
      const message = (response.body as { error?: { message?: string } })?.error?.message ?? "fake error";
      return json(res, response.status, { type: "error", error: { type: errorType(response.status), message } }, response.headers);
    }
    if (recorded.body?.stream === true) return this.stream(res, recorded, response);
    json(res, 200, messageOf(recorded.body?.model ?? "claude-test", response));
  }

  /** The Messages API's events; a StreamShape's pieces, delays, break, stall and error count from the first text, as FakeOpenAI's do. */
  private async stream(res: ServerResponse, recorded: RecordedRequest, message: Extract<FakeResponse, { kind: "message" }>): Promise<void> {
    const shape = message.stream ?? {};
    const usage = usageOf(message.usage);
    const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const opening = [
      event("message_start", {
        message: {
          id: `msg_${++messageCounter}`,
          type: "message",
          role: "assistant",
          model: recorded.body?.model ?? "claude-test",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      }),
    ];
    const pieces = shape.pieces ?? (message.content ? [message.content] : []);
    const counted: string[] = [];
    let block = 0;
    if (pieces.length > 0) {
      opening.push(event("content_block_start", { index: block, content_block: { type: "text", text: "" } }), event("ping", {}));
      for (const piece of pieces) counted.push(event("content_block_delta", { index: block, delta: { type: "text_delta", text: piece } }));
      counted.push(event("content_block_stop", { index: block++ }));
    }
    for (const call of message.toolCalls ?? []) {
      const half = Math.ceil(call.arguments.length / 2);
      counted.push(
        event("content_block_start", { index: block, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }),
        event("content_block_delta", { index: block, delta: { type: "input_json_delta", partial_json: call.arguments.slice(0, half) } }),
        event("content_block_delta", { index: block, delta: { type: "input_json_delta", partial_json: call.arguments.slice(half) } }),
        event("content_block_stop", { index: block++ }),
      );
    }
    counted.push(
      event("message_delta", {
        delta: { stop_reason: message.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      }),
      event("message_stop", {}),
    );

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    this.hanging.add(res);
    res.on("close", () => this.hanging.delete(res));
    for (const opener of opening) res.write(opener);
    for (const [piece, data] of counted.entries()) {
      if (shape.delayMs) await new Promise((resolve) => setTimeout(resolve, shape.delayMs));
      if (shape.breakAfter !== undefined && piece === shape.breakAfter) return void res.write("", () => res.destroy());
      if (shape.stallAfter !== undefined && piece === shape.stallAfter) return;
      if (shape.errorAfter !== undefined && piece === shape.errorAfter) {
        return void res.end(event("error", { error: { type: "overloaded_error", message: "Overloaded" } }));
      }
      if (res.destroyed) return;
      res.write(data);
      recorded.chunksAt.push(performance.now());
    }
    res.end();
  }
}

/** A whole message: text and tool_use blocks (a call's input is the object its arguments spell: the API sends no other). */
function messageOf(model: string, message: Extract<FakeResponse, { kind: "message" }>) {
  const content: object[] = [];
  if (message.content) content.push({ type: "text", text: message.content });
  for (const call of message.toolCalls ?? []) content.push({ type: "tool_use", id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  const usage = usageOf(message.usage);
  return {
    id: `msg_${++messageCounter}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: message.toolCalls?.length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens },
  };
}

/** A scenario's usage (written as OpenAI counts it) as Anthropic reports it; the same default as FakeOpenAI's. */
function usageOf(usage: Usage | undefined): { input_tokens: number; output_tokens: number } {
  return { input_tokens: usage?.prompt_tokens ?? 10, output_tokens: usage?.completion_tokens ?? 5 };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers });
  res.end(payload);
}
