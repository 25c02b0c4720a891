import type { IncomingMessage, ServerResponse } from "node:http";
import type { App } from "../app.js";
import type { Config } from "../config/env.js";

/** Answers some HTTP requests (GET /healthz, /metrics); false for the others. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface PlatformContext {
  /** Set when the platform's own HTTP server should also serve these routes (it listens on HEALTH_PORT). */
  sharedRoutes?: { paths: string[]; handler: HttpHandler };
}

/** A running connection to one chat platform. */
export interface PlatformAdapter {
  readonly name: string;
  start(): Promise<void>;
  /** Stops receiving events and closes connections; running turns are the runner's to finish. */
  stop(): Promise<void>;
  /** Connection state for /healthz. */
  health(): { connected: boolean; detail?: string };
}

export interface Platform {
  name: string;
  /** True when the configuration has this platform's credentials. */
  configured(config: Config): boolean;
  create(app: App, context?: PlatformContext): PlatformAdapter | Promise<PlatformAdapter>;
  /** The port of the HTTP server the platform will run, if any (Slack's HTTP mode), so others can share it. */
  httpPort?(config: Config): number | undefined;
  /** For `npm run doctor`: checks the credentials against the platform without starting anything. */
  checkCredentials?(config: Config): Promise<string>;
}
