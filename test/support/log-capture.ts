import { pino } from "pino";
import type { Logger } from "../../src/log.js";

export interface CapturedLogs {
  logger: Logger;
  /** Every log line so far, parsed (the array grows as lines are written). */
  lines: Record<string, any>[];
  /** All lines as one string, for "no secret leaked" checks. */
  text(): string;
}

/** A real pino logger whose JSON lines are kept in memory, for asserting what an operator would read. */
export function captureLogs(level = "debug"): CapturedLogs {
  const raw: string[] = [];
  const lines: Record<string, any>[] = [];
  const logger = pino({ level }, {
    write: (line: string) => {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  return { logger, lines, text: () => raw.join("") };
}
