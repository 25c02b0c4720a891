import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/** Paths pino replaces with "[redacted]" wherever they appear, so a stray object never leaks a secret. */
const SECRET_PATHS = [
  "apiKey",
  "token",
  "*.apiKey",
  "*.token",
  "headers.authorization",
  "*.headers.authorization",
  "config.OPENAI_API_KEY",
  "config.DISCORD_TOKEN",
  "config.SLACK_BOT_TOKEN",
  "config.SLACK_APP_TOKEN",
  "config.SLACK_SIGNING_SECRET",
];

/**
 * Logs go to stderr as JSON lines, so stdout stays free for the terminal adapter's conversation.
 * Message text is logged only at debug level; tokens and keys never. `destination` is a file
 * descriptor, a path, or a stream (tests and the benchmark use it).
 */
export function createLogger(level: string = "info", destination: DestinationStream | number | string = 2): Logger {
  const stream = typeof destination === "object" ? destination : pino.destination(destination);
  return pino({ level, redact: { paths: SECRET_PATHS, censor: "[redacted]" } }, stream);
}

/** A logger that drops everything, for tests and library use. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
