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
  "config.DATABASE_URL",
  "config.DATABASE_LISTEN_URL",
  "connectionString",
  "*.connectionString",
];

/**
 * Logs go to stderr as JSON lines, so stdout stays free for the terminal adapter's conversation.
 * Message text is logged only at debug level; tokens and keys never. `destination` is a file
 * descriptor, a path, or a stream (tests and the benchmark use it).
 */
export function createLogger(level: string = "info", destination: DestinationStream | number | string = 2, format: LogFormat = "json"): Logger {
  const stream = typeof destination === "object" ? destination : pino.destination(destination);
  return pino({ level, redact: { paths: SECRET_PATHS, censor: "[redacted]" } }, format === "text" ? textLines(stream) : stream);
}

/** JSON lines for collectors (chat platforms); one readable line per entry for a person at a terminal. */
export type LogFormat = "json" | "text";

const LEVEL_NAMES: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warning", 50: "error", 60: "fatal" };

/**
 * Turns pino's JSON lines into "warning: tool failed (calculator: the expression is empty)": the
 * level, the message, and the error's message or the tool, without stack traces or fields.
 */
function textLines(out: DestinationStream): DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      const err = entry.err as { message?: string } | undefined;
      const detail = [entry.tool, err?.message].filter((part) => typeof part === "string" && part !== "").join(": ");
      out.write(`${LEVEL_NAMES[entry.level as number] ?? "log"}: ${String(entry.msg ?? "")}${detail ? ` (${detail})` : ""}\n`);
    },
  };
}

/** A logger that drops everything, for tests and library use. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
