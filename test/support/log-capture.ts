import { pino } from "pino";
import type { Logger } from "../../src/log.js";

export interface CapturedLogs {
  logger: Logger;
  /** Every log line, parsed. */
  lines: Record<string, any>[];
  /** All lines as one string, for "no secret leaked" checks. */
  text(): string;
}

/** A real pino logger whose JSON lines are kept in memory. */
export function captureLogs(level = "debug"): CapturedLogs {
  const raw: string[] = [];
  const logger = pino({ level }, { write: (line: string) => void raw.push(line) });
  return {
    logger,
    get lines() {
      return raw.map((line) => JSON.parse(line));
    },
    text: () => raw.join(""),
  };
}
