/**
 * Where the bot's own HTTP requests go behind a corporate proxy (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY): the model clients, Slack's Web API client and the knowledge tools all fetch through
 * `netFetch` or `keepAliveFetch` (proxied-fetch.ts sends what goes through a proxy), which ask
 * `proxyFor` about each address. Set once at start, from the configuration.
 */

/** As the configuration names them (src/config/env.ts). */
export interface ProxySettings {
  /** For https:// addresses; HTTP_PROXY when unset, as curl and undici do. */
  HTTPS_PROXY?: string;
  /** For http:// addresses. */
  HTTP_PROXY?: string;
  /** Hosts reached directly: comma- or space-separated names (each with its subdomains), `host:port`, or `*`. */
  NO_PROXY?: string;
}

interface NoProxyEntry {
  host: string;
  port?: number;
}

interface ProxyRoutes {
  https?: string;
  http?: string;
  all: boolean;
  direct: NoProxyEntry[];
}

let routes: ProxyRoutes | undefined;

/** Sets where requests go from now on (at start, from the configuration); none set: every request goes directly. */
export function useProxy(settings: ProxySettings): void {
  const https = settings.HTTPS_PROXY ?? settings.HTTP_PROXY;
  const http = settings.HTTP_PROXY;
  if (!https && !http) {
    routes = undefined;
    return;
  }
  const entries = (settings.NO_PROXY ?? "").split(/[\s,]+/).filter((entry) => entry !== "");
  routes = { https, http, all: entries.includes("*"), direct: entries.map(noProxyEntry) };
}

/** The proxy a request to `url` goes through, or undefined when it goes directly. */
export function proxyFor(url: URL): string | undefined {
  if (!routes) return undefined;
  const proxy = url.protocol === "https:" ? routes.https : url.protocol === "http:" ? routes.http : undefined;
  if (!proxy || routes.all) return undefined;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const direct = routes.direct.some((entry) => (entry.port === undefined || entry.port === port) && (host === entry.host || host.endsWith(`.${entry.host}`)));
  return direct ? undefined : proxy;
}

function noProxyEntry(entry: string): NoProxyEntry {
  const lower = entry.toLowerCase();
  // IPv6: "[::1]:8080", or a bare "::1"; URL.hostname keeps the brackets.
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(lower);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : undefined };
  if (lower.split(":").length > 2) return { host: `[${lower}]` };
  const [host, port] = lower.split(":");
  // ".example.com" and "*.example.com" mean what "example.com" does: it and its subdomains.
  return { host: host!.replace(/^\*?\./, ""), port: port ? Number(port) : undefined };
}
