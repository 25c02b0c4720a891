import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ANSWER, TOOL_CALLS } from "./turn-script.js";

/**
 * A lean OpenAI-compatible chat endpoint for the benchmark, stateless so any number of
 * conversations can share it: it answers with the next step of the turn script, chosen by how
 * many tool results the request already carries. Responses are serialised once, bodies are
 * scanned as bytes, never parsed, so the fake costs as little as possible.
 *
 * `POST /v1/chat/completions` answers at once; `POST /delay/<ms>/v1/chat/completions` after <ms>;
 * `POST /stream/<n>/v1/chat/completions` streams a text answer of <n> chunks (server-sent events,
 * usage last), written as fast as the socket takes them. `POST /streamed/v1/chat/completions`
 * streams the turn script's steps as OpenAI streams them: tool calls in argument deltas, the
 * answer word by word, usage last.
 *
 * `POST /bodies/record` starts keeping every chat request body from then on; `GET /bodies` answers
 * with the bodies kept (a JSON array of strings) and stops keeping them. The benchmark compares the
 * bot's bodies with the floor's this way.
 */
export function startBenchModel(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => handle(req, res));
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

const TOOL_RESULT = Buffer.from('"role":"tool"');
const DELAYED_PATH = /^\/delay\/(\d+)\//;
const STREAM_PATH = /^\/stream\/(\d+)\//;
const STREAMED_SCRIPT_PATH = /^\/streamed\//;
const STREAM_REQUESTED = Buffer.from('"stream":true');

/** Words of the bot's summary request (src/runner/memory-summary/summary-text.ts), which no turn of the script carries. */
const SUMMARY_REQUEST = Buffer.from("Messages that left the recent memory");

/**
 * The serialised chat completion that answers a request body: the next step of the turn script,
 * or, for the bot's request to summarize what left a conversation's memory window, a summary (as
 * a model would write one: a bot whose summaries all failed would measure its fallback instead).
 */
export function scriptedResponse(body: Buffer): Buffer {
  if (body.includes(SUMMARY_REQUEST)) return SUMMARY_RESPONSE;
  return RESPONSES[Math.min(count(body, TOOL_RESULT), RESPONSES.length - 1)]!;
}

/** Chat request bodies kept since `POST /bodies/record`; undefined when not recording. */
let recorded: string[] | undefined;

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    if (req.url === "/bodies/record" || req.url === "/bodies") {
      answerBodies(req, res);
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    const streamed = Number(STREAM_PATH.exec(req.url)?.[1] ?? 0);
    if (streamed > 0) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(streamedAnswer(streamed));
      return;
    }
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    recorded?.push(body.toString("utf8"));
    // A request that does not ask for a stream (a summary's) is answered whole, as a server would.
    if (STREAMED_SCRIPT_PATH.test(req.url) && body.includes(STREAM_REQUESTED)) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(streamedScript(body));
      return;
    }
    const payload = scriptedResponse(body);
    const send = () => res.writeHead(200, { "content-type": "application/json", "content-length": payload.length }).end(payload);
    const delayMs = Number(DELAYED_PATH.exec(req.url)?.[1] ?? 0);
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
}

function answerBodies(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === "POST") {
    recorded = [];
    res.writeHead(204).end();
    return;
  }
  const bodies = recorded ?? [];
  recorded = undefined;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(bodies));
}

function count(haystack: Buffer, needle: Buffer): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found++;
  return found;
}

function toolCallResponse(call: (typeof TOOL_CALLS)[number]): Buffer {
  return completion(
    { role: "assistant", content: null, tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }] },
    "tool_calls",
  );
}

function textResponse(text: string): Buffer {
  return completion({ role: "assistant", content: text }, "stop");
}

function completion(message: unknown, finishReason: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "bench-model",
      choices: [{ index: 0, message, finish_reason: finishReason }],
      usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 },
    }),
  );
}

const RESPONSES = [...TOOL_CALLS.map((call) => toolCallResponse(call)), textResponse(ANSWER)];
const SUMMARY_RESPONSE = textResponse("alice asked for a circumference and a hypotenuse; the bot answered 49.07 and 5.");

/** A streamed chunk of the script's completions, as OpenAI writes one. */
const chunkEvent = (choices: unknown[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench-model", choices, ...extra })}\n\n`;
const USAGE_EVENT = chunkEvent([], { usage: { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 } });

function streamedToolCall(call: (typeof TOOL_CALLS)[number]): Buffer {
  const args = JSON.stringify(call.args);
  const half = Math.floor(args.length / 2);
  const delta = (fn: object, head: object = {}) => chunkEvent([{ index: 0, delta: { ...head, tool_calls: [{ index: 0, ...fn }] }, finish_reason: null }]);
  return Buffer.from(
    [
      delta({ id: call.id, type: "function", function: { name: call.name, arguments: "" } }, { role: "assistant", content: null }),
      delta({ function: { arguments: args.slice(0, half) } }),
      delta({ function: { arguments: args.slice(half) } }),
      chunkEvent([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
      USAGE_EVENT,
      "data: [DONE]\n\n",
    ].join(""),
  );
}

function streamedText(text: string): Buffer {
  const words = text.split(/(?<= )/);
  return Buffer.from(
    [
      chunkEvent([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
      ...words.map((word) => chunkEvent([{ index: 0, delta: { content: word }, finish_reason: null }])),
      chunkEvent([{ index: 0, delta: {}, finish_reason: "stop" }]),
      USAGE_EVENT,
      "data: [DONE]\n\n",
    ].join(""),
  );
}

const STREAMED = [...TOOL_CALLS.map((call) => streamedToolCall(call)), streamedText(ANSWER)];

/** The turn script's next step, streamed. */
function streamedScript(body: Buffer): Buffer {
  return STREAMED[Math.min(count(body, TOOL_RESULT), STREAMED.length - 1)]!;
}

/** The word each streamed chunk carries; the answer is this, `n` times. */
export const STREAM_WORD = "token ";
const streamedAnswers = new Map<number, Buffer>();

/** A streamed answer of `n` text chunks, as OpenAI sends one: a role chunk, the text, the finish, usage, [DONE]. */
function streamedAnswer(n: number): Buffer {
  let cached = streamedAnswers.get(n);
  if (cached) return cached;
  const event = (choices: unknown[], extra: object = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench-model", choices, ...extra })}\n\n`;
  const parts = [event([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  for (let i = 0; i < n; i++) parts.push(event([{ index: 0, delta: { content: STREAM_WORD }, finish_reason: null }]));
  parts.push(event([{ index: 0, delta: {}, finish_reason: "stop" }]));
  parts.push(event([], { usage: { prompt_tokens: 300, completion_tokens: n, total_tokens: 300 + n } }));
  parts.push("data: [DONE]\n\n");
  cached = Buffer.from(parts.join(""));
  streamedAnswers.set(n, cached);
  return cached;
}
