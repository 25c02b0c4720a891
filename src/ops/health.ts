import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SERVER_LIMITS } from "../net/server-limits.js";
import type { Store } from "../store/store.js";
import type { BotMetrics } from "./metrics.js";

interface PlatformHealth {
  name: string;
  health(): { connected: boolean; detail?: string };
}

export interface HealthSources {
  store: Pick<Store, "ping">;
  metrics: BotMetrics;
  platforms: () => PlatformHealth[];
  startedAt?: number;
  /**
   * Whether the bot takes work: false until every platform was started (the list is empty, or
   * partial, before) and again once shutdown began. Only /readyz reads it. Always, when unset.
   */
  accepting?(): boolean;
}

/** The routes the handler answers, for a platform's HTTP server that shares them. */
export const HEALTH_PATHS = ["/livez", "/readyz", "/healthz", "/metrics"];

export interface HealthReport {
  status: "ok" | "degraded";
  uptimeSeconds: number;
  database: "ok" | "unreachable";
  platforms: Record<string, { connected: boolean; detail?: string }>;
}

/** A database that does not answer within this long counts as unreachable. */
const PING_TIMEOUT_MS = 2_000;

async function healthReport(sources: HealthSources): Promise<HealthReport> {
  let database: HealthReport["database"] = "ok";
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([sources.store.ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no answer")), PING_TIMEOUT_MS)))]);
  } catch {
    database = "unreachable";
  } finally {
    clearTimeout(timer);
  }
  const platforms = Object.fromEntries(sources.platforms().map((platform) => [platform.name, platform.health()]));
  const healthy = database === "ok" && Object.values(platforms).every((platform) => platform.connected);
  return {
    status: healthy ? "ok" : "degraded",
    uptimeSeconds: Math.round((Date.now() - (sources.startedAt ?? Date.now())) / 1000),
    database,
    platforms,
  };
}

/**
 * Answers GET /livez (the process answers: nothing else is checked, so a slow database never gets
 * it restarted), /readyz (it takes work: started, platforms connected, database reachable; 503
 * otherwise), /healthz (the same checks, and the report, whether or not it has started) and
 * /metrics; returns false for any other request so the handler can share a server with others
 * (Slack's HTTP receiver).
 */
export function createHealthHandler(sources: HealthSources) {
  const withStart = { ...sources, startedAt: sources.startedAt ?? Date.now() };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (req.method !== "GET" || !HEALTH_PATHS.includes(path)) return false;
    if (path === "/livez") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok\n");
      return true;
    }
    if (path === "/metrics") {
      void sources.metrics.render().then(
        (body) => {
          res.writeHead(200, { "content-type": sources.metrics.contentType });
          res.end(body);
        },
        () => {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end("could not collect the metrics\n");
        },
      );
      return true;
    }
    void healthReport(withStart).then((report) => {
      if (path === "/readyz") {
        const ready = report.status === "ok" && (sources.accepting?.() ?? true);
        res.writeHead(ready ? 200 : 503, { "content-type": "application/json" });
        res.end(JSON.stringify({ ready, database: report.database, platforms: report.platforms }));
        return;
      }
      res.writeHead(report.status === "ok" ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify(report));
    });
    return true;
  };
}

/** A server of its own for the health routes and /metrics (HEALTH_PORT), on loopback unless told otherwise (HEALTH_HOST). */
export async function startHealthServer(port: number, handler: ReturnType<typeof createHealthHandler>, host = "127.0.0.1"): Promise<Server> {
  const server = createServer(SERVER_LIMITS, (req, res) => {
    if (!handler(req, res)) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export const serverPort = (server: Server) => (server.address() as AddressInfo).port;
