import { boundedFetch, type BoundedFetchError } from "../../net/bounded-fetch.js";
import { BotError, hasCode } from "../../errors.js";

/** How the knowledge tools talk to their services; one set of limits for all of them. */
export interface HttpSettings {
  userAgent: string;
  /** Per request: a slow service becomes a clear observation before the tool's own time limit. */
  timeoutMs: number;
  /** The body is read as a stream and abandoned past this many bytes. */
  maxBytes: number;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;

/**
 * A failure the model should read: its message is short and safe to show (no URLs with secrets,
 * no stack). The technical detail travels in `cause` and reaches only the log.
 */
export class KnowledgeError extends BotError<"knowledge_failed"> {
  override readonly name = "KnowledgeError";
  constructor(message: string, options?: ErrorOptions) {
    super("knowledge_failed", message, options);
  }
}

export interface HttpRequest {
  /** The service's name as the model should read it, e.g. "Wikipedia". */
  service: string;
  url: URL;
  method?: "GET" | "POST";
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams;
  accept: string;
  /** A clearer message for a particular HTTP status than the generic one. */
  describeStatus?(status: number): string | undefined;
}

/**
 * Fetches a text body with the User-Agent, timeout and byte cap. Redirects are followed only
 * on the configured host, so a tool never ends up talking to a site nobody configured.
 * Throws KnowledgeError for every expected failure; rethrows the turn's own abort untouched.
 */
export async function fetchText(request: HttpRequest, settings: HttpSettings, signal: AbortSignal): Promise<string> {
  try {
    const response = await boundedFetch(
      {
        url: request.url,
        method: request.method,
        form: request.form,
        headers: { "user-agent": settings.userAgent, accept: request.accept },
        timeoutMs: settings.timeoutMs,
        maxBytes: settings.maxBytes,
      },
      signal,
    );
    // Decoded once at the end, so a multi-byte character split across chunks stays whole.
    return new TextDecoder("utf-8").decode(response.bytes);
  } catch (error) {
    if (!hasCode<BoundedFetchError>(error, "fetch_failed")) throw error;
    throw new KnowledgeError(describeFailure(error, request, settings), { cause: error });
  }
}

function describeFailure(error: BoundedFetchError, request: HttpRequest, settings: HttpSettings): string {
  const { service } = request;
  switch (error.failure) {
    case "http_status":
      return request.describeStatus?.(error.status!) ?? `${service} answered with an error (HTTP ${error.status}).`;
    case "too_large":
      return `${service}'s answer was larger than ${Math.round(settings.maxBytes / 1024)} KB, so it was not read.`;
    case "timeout":
      return `${service} did not answer within ${seconds(settings.timeoutMs)}.`;
    case "not_allowed":
    case "redirected":
      return `${service} redirected the request elsewhere, so it was not followed.`;
    case "unreachable":
      return `${service} could not be reached.`;
  }
}

/** Parses JSON or explains, in the model's terms, that the service answered something else. */
export function parseJson(text: string, service: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new KnowledgeError(`${service} answered in an unexpected format (not JSON).`, { cause: error });
  }
}

/** Shortens text to at most `max` characters at a word boundary, marking the cut. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

/** Joins blocks in order, leaving out whole blocks once the budget would be exceeded. */
export function withinBudget(header: string, blocks: string[], budget: number): string {
  let text = header;
  let shown = 0;
  for (const block of blocks) {
    if (shown > 0 && text.length + block.length + 2 > budget) break;
    text += `\n\n${block}`;
    shown++;
  }
  if (shown < blocks.length) text += `\n\n(${blocks.length - shown} more result(s) left out to keep this short.)`;
  return text;
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);
