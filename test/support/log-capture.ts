import { createLogger, type Logger } from "../../src/log.js";

export interface CapturedLogs {
  logger: Logger;
  /** Every log line so far, parsed (the array grows as lines are written). */
  lines: Record<string, any>[];
  /** All lines as one string, for "no secret leaked" checks. */
  text(): string;
}

/**
 * The production logger (createLogger: same redaction of keys and tokens), with its JSON lines
 * kept in memory, for asserting what an operator would read.
 */
export function captureLogs(level = "debug"): CapturedLogs {
  const raw: string[] = [];
  const lines: Record<string, any>[] = [];
  const logger = createLogger(level, {
    write: (line: string) => {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  return { logger, lines, text: () => raw.join("") };
}
