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
export class KnowledgeError extends Error {
  override readonly name = "KnowledgeError";
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

const MAX_REDIRECTS = 3;

/**
 * Fetches a text body with the User-Agent, timeout and byte cap. Redirects are followed only
 * on the configured host, so a tool never ends up talking to a site nobody configured.
 * Throws KnowledgeError for every expected failure; rethrows the turn's own abort untouched.
 */
export async function fetchText(request: HttpRequest, settings: HttpSettings, signal: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  try {
    const response = await fetchFollowingSameHost(request, settings, combined);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const described = request.describeStatus?.(response.status);
      throw new KnowledgeError(described ?? `${request.service} answered with an error (HTTP ${response.status}).`);
    }
    return await readCapped(response, request.service, settings.maxBytes);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof KnowledgeError) throw error;
    if (timeout.aborted) {
      throw new KnowledgeError(`${request.service} did not answer within ${seconds(settings.timeoutMs)}.`, { cause: error });
    }
    throw new KnowledgeError(`${request.service} could not be reached.`, { cause: error });
  }
}

async function fetchFollowingSameHost(request: HttpRequest, settings: HttpSettings, signal: AbortSignal): Promise<Response> {
  let url = request.url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, {
      method: request.method ?? "GET",
      body: request.form,
      headers: { "user-agent": settings.userAgent, accept: request.accept },
      redirect: "manual",
      signal,
    });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = new URL(location, url);
    if (!sameService(request.url, next) || hop >= MAX_REDIRECTS) {
      throw new KnowledgeError(`${request.service} redirected the request elsewhere, so it was not followed.`, {
        cause: new Error(`redirect to ${next.origin}`),
      });
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

async function readCapped(response: Response, service: string, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new KnowledgeError(`${service}'s answer was larger than ${Math.round(maxBytes / 1024)} KB, so it was not read.`);
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  // Decoded once at the end, so a multi-byte character split across chunks stays whole.
  return new TextDecoder("utf-8").decode(Buffer.concat(chunks));
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
