import type { App } from "../app.js";
import type { Config } from "../config/env.js";

/** A running connection to one chat platform. */
export interface PlatformAdapter {
  readonly name: string;
  start(): Promise<void>;
  /** Stops receiving events and closes connections; running turns are the runner's to finish. */
  stop(): Promise<void>;
}

export interface Platform {
  name: string;
  /** True when the configuration has this platform's credentials. */
  configured(config: Config): boolean;
  create(app: App): PlatformAdapter | Promise<PlatformAdapter>;
}
