import { pino, type Logger } from "pino";

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
 * `destination` (a file descriptor or path) is for tools such as the benchmark.
 */
export function createLogger(level: string = "info", destination: number | string = 2): Logger {
  return pino({ level, redact: { paths: SECRET_PATHS, censor: "[redacted]" } }, pino.destination(destination));
}

/** A logger that drops everything, for tests and library use. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
