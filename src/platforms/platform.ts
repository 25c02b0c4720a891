import type { App } from "../app.js";
import type { Config } from "../config/env.js";

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
  create(app: App): PlatformAdapter | Promise<PlatformAdapter>;
  /** For `npm run doctor`: checks the credentials against the platform without starting anything. */
  checkCredentials?(config: Config): Promise<string>;
}
