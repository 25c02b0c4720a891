import OpenAI from "openai";
import { clientFetch } from "../../../net/keep-alive-fetch.js";

const PATH = "/chat/completions";

/**
 * POST /chat/completions over the bot's fetch (clientFetch), rather than through the openai
 * client's request path. That path cost about 140 µs of CPU a call on the started bot (each
 * request's headers built and merged through undici's Headers, a debug line of them formatted
 * whatever the log level), and a turn makes three calls: it was most of what a streamed turn cost
 * over a bare loop (issue 30). What a caller can tell stays the client's: the address, key,
 * organization and project the client resolved (its environment variables included), its timeout
 * until the response's headers, and its errors (a status error is APIError.generate's subclass, a
 * lost connection APIConnectionError, the timeout APIConnectionTimeoutError, a cancel
 * APIUserAbortError), so classifyOpenAIError reads them as before.
 */
export class CompletionsEndpoint {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly fetch: typeof globalThis.fetch;

  constructor(
    client: OpenAI,
    private readonly timeoutMs: number,
  ) {
    this.url = `${client.baseURL.replace(/\/+$/, "")}${PATH}`;
    this.headers = { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${client.apiKey}` };
    if (client.organization) this.headers["openai-organization"] = client.organization;
    if (client.project) this.headers["openai-project"] = client.project;
    // As the client does, the fetch in place now: a test double or interceptor that replaced the global one is kept.
    this.fetch = clientFetch() ?? globalThis.fetch;
  }

  /**
   * Sends `body` (the request's JSON) under `call` (see callAbort), which the timeout aborts too;
   * resolves with a successful response, its body unread, or rejects with the client's error.
   */
  async post(body: Uint8Array, call: AbortController): Promise<Response> {
    if (call.signal.aborted) throw new OpenAI.APIUserAbortError();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort();
    }, this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetch(this.url, { method: "POST", headers: this.headers, body, signal: call.signal });
    } catch (error) {
      if (timedOut) throw new OpenAI.APIConnectionTimeoutError();
      if (call.signal.aborted) throw new OpenAI.APIUserAbortError();
      throw new OpenAI.APIConnectionError({ message: "Connection error.", cause: error instanceof Error ? error : undefined });
    } finally {
      clearTimeout(timer);
    }
    if (response.ok) return response;
    // As the client reports a status: the body's JSON as the error, or its text as the message.
    const text = await response.text().catch((error: unknown) => String(error));
    const json = jsonOrUndefined(text);
    throw OpenAI.APIError.generate(response.status, json, json === undefined ? text : undefined, response.headers);
  }
}

function jsonOrUndefined(text: string): object | undefined {
  try {
    return JSON.parse(text) as object;
  } catch {
    return undefined;
  }
}
