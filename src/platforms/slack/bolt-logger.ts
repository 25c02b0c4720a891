import { LogLevel, type Logger as BoltLogger } from "@slack/bolt";
import type { Logger } from "../../log.js";

/** Bolt, its Web API client and Socket Mode client log through the app's pino logger. */
export function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: "slack-bolt" });
  const text = (parts: unknown[]) => parts.map((part) => (typeof part === "string" ? part : safeJson(part))).join(" ");
  return {
    debug: (...parts) => log.debug(text(parts)),
    info: (...parts) => log.info(text(parts)),
    warn: (...parts) => log.warn(text(parts)),
    error: (...parts) => log.error(text(parts)),
    // The level is LOG_LEVEL's; Bolt asking for another one is ignored.
    setLevel: () => {},
    getLevel: () => {
      const level = log.levelVal;
      if (level <= 20) return LogLevel.DEBUG;
      if (level <= 30) return LogLevel.INFO;
      if (level <= 40) return LogLevel.WARN;
      return LogLevel.ERROR;
    },
    setName: () => {},
  };
}

function safeJson(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
