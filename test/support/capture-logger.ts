import { pino } from "pino";
import type { Logger } from "../../src/log.js";

/** A real pino logger whose JSON lines the test can read. */
export function captureLogger(): { logger: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}
