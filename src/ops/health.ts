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
}

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
 * Answers GET /healthz and GET /metrics; returns false for any other request so the handler can
 * share a server with others (Slack's HTTP receiver).
 */
export function createHealthHandler(sources: HealthSources) {
  const withStart = { ...sources, startedAt: sources.startedAt ?? Date.now() };
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" || (path !== "/healthz" && path !== "/metrics")) return false;
    if (path === "/metrics") {
      const body = sources.metrics.render();
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
      res.end(body);
      return true;
    }
    void healthReport(withStart).then((report) => {
      res.writeHead(report.status === "ok" ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify(report));
    });
    return true;
  };
}

/** A server of its own for /healthz and /metrics (HEALTH_PORT). */
export async function startHealthServer(port: number, handler: ReturnType<typeof createHealthHandler>, host = "0.0.0.0"): Promise<Server> {
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
