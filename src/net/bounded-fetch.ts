/**
 * The one way the bot reads from a web address: a time limit, a byte cap enforced while reading,
 * and redirects followed only to where the caller allows (never elsewhere). The knowledge tools
 * and the platforms' file downloads build on it.
 */

import { deadline } from "../signals.js";
import { netFetch } from "./proxied-fetch.js";
import { BotError, hasCode } from "../errors.js";

/** Why a fetch failed; callers turn it into words for their audience (the model, the log). */
export type FetchFailure =
  /** The address (or a redirect's) is not one the caller allows. */
  "not_allowed" | "redirected" | "http_status" | "too_large" | "timeout" | "unreachable";

/** An expected failure. The message is for the log; `failure` and `status` are for deciding what to say. */
export class BoundedFetchError extends BotError<"fetch_failed"> {
  override readonly name = "BoundedFetchError";
  constructor(
    readonly failure: FetchFailure,
    message: string,
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super("fetch_failed", message, options);
  }
}

export interface BoundedRequest {
  url: URL;
  method?: "GET" | "POST";
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The body is read as a stream; past this many bytes it is abandoned. */
  maxBytes: number;
  /** Past `maxBytes`: fail (the default), or keep the first `maxBytes` and say so. */
  overflow?: "fail" | "truncate";
  /**
   * Where the request and its redirects may go. Default: the request's own service (see
   * `sameService`). Checked before any connection, for the first address too.
   */
  allows?(url: URL): boolean;
}

export interface BoundedResponse {
  status: number;
  /** The Content-Type header, as sent. */
  contentType?: string;
  bytes: Buffer;
  /** True when the body went on past `maxBytes` and only its start was kept (overflow "truncate"). */
  truncated: boolean;
}

const MAX_REDIRECTS = 3;

/**
 * Fetches a 2xx body within the request's limits. Throws BoundedFetchError for every expected
 * failure (an HTTP error status included); rethrows the caller's own abort untouched.
 */
export async function boundedFetch(request: BoundedRequest, signal: AbortSignal): Promise<BoundedResponse> {
  const timeout = deadline(signal, request.timeoutMs);
  try {
    const response = await fetchFollowingAllowed(request, timeout.signal);
    if (response.status < 200 || response.status >= 300) {
      await discard(response);
      throw new BoundedFetchError("http_status", `answered HTTP ${response.status}`, response.status);
    }
    const body = await readCapped(response, request.maxBytes, request.overflow ?? "fail");
    return { status: response.status, contentType: response.headers.get("content-type") ?? undefined, ...body };
  } catch (error) {
    if (signal.aborted) throw error;
    if (hasCode(error, "fetch_failed")) throw error;
    if (timeout.expired) throw new BoundedFetchError("timeout", `no answer within ${request.timeoutMs} ms`, undefined, { cause: error });
    throw new BoundedFetchError("unreachable", "could not be reached", undefined, { cause: error });
  } finally {
    timeout.release();
  }
}

async function fetchFollowingAllowed(request: BoundedRequest, signal: AbortSignal): Promise<Response> {
  const allows = request.allows ?? ((next: URL) => sameService(request.url, next));
  let url = request.url;
  if (!allows(url)) throw new BoundedFetchError("not_allowed", `${url.origin} is not an allowed address`);
  for (let hop = 0; ; hop++) {
    const response = await netFetch(url, {
      method: request.method ?? "GET",
      body: request.form,
      headers: request.headers,
      redirect: "manual",
      signal,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await discard(response);
    const next = new URL(location, url);
    if (!allows(next) || hop >= MAX_REDIRECTS) {
      throw new BoundedFetchError("redirected", `redirect to ${next.origin} not followed`);
    }
    url = next;
  }
}

/**
 * The configured scheme, host and port; or, for a service configured as plain http on its default
 * port, the same host upgraded to https on its default port. Another port of the same host is
 * another service (an admin panel, a metadata endpoint), so a redirect there is not followed.
 */
function sameService(configured: URL, next: URL): boolean {
  if (next.origin === configured.origin) return true;
  const upgrade = configured.protocol === "http:" && next.protocol === "https:";
  return upgrade && next.hostname === configured.hostname && configured.port === "" && next.port === "";
}

async function readCapped(response: Response, maxBytes: number, overflow: "fail" | "truncate"): Promise<{ bytes: Buffer; truncated: boolean }> {
  const tooLarge = () => new BoundedFetchError("too_large", `larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes && overflow === "fail") {
    await discard(response);
    throw tooLarge();
  }
  if (!response.body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), truncated: false };
    if (total + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      if (overflow === "fail") throw tooLarge();
      chunks.push(value.subarray(0, maxBytes - total));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    total += value.byteLength;
    chunks.push(value);
  }
}

const discard = (response: Response) => response.body?.cancel().catch(() => undefined);
