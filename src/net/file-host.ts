import type { FetchedFile, FileLimits } from "../contract/inbound.js";
import { boundedFetch, BoundedFetchError } from "./bounded-fetch.js";

/**
 * True when `url` is on the file host configured as `base` (DISCORD_CDN_URL, SLACK_FILES_URL):
 * the same scheme, host and port, under its path.
 */
function onFileHost(base: URL, url: URL): boolean {
  return url.origin === base.origin && url.pathname.startsWith(base.pathname);
}

/**
 * Downloads a file a platform described, from that platform's own file host only: the address
 * and every redirect must be on `host`. `headers` carry the platform's credentials (Slack's bot
 * token), which therefore never leave the host. Throws BoundedFetchError.
 */
export async function fetchFromFileHost(
  address: string | undefined,
  host: URL,
  options: FileLimits & { headers?: Record<string, string> },
  signal: AbortSignal,
): Promise<FetchedFile> {
  const url = parseUrl(address);
  if (!url) throw new BoundedFetchError("not_allowed", "the platform gave no address for the file");
  const response = await boundedFetch(
    {
      url,
      headers: options.headers ?? {},
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      overflow: options.overflow,
      allows: (next) => onFileHost(host, next),
    },
    signal,
  );
  return { bytes: response.bytes, contentType: response.contentType, truncated: response.truncated };
}

function parseUrl(address: string | undefined): URL | undefined {
  if (address === undefined) return undefined;
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}
