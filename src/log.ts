import { pino, type DestinationStream, type Level, type Logger } from "pino";

export type { Logger };

const CENSOR = "[redacted]";

/** Paths pino replaces with "[redacted]" wherever they appear, so a stray object never leaks a secret. */
const SECRET_PATHS = [
  "apiKey",
  "token",
  "headers.authorization",
  "config.OPENAI_API_KEY",
  "config.DISCORD_TOKEN",
  "config.SLACK_BOT_TOKEN",
  "config.SLACK_APP_TOKEN",
  "config.SLACK_SIGNING_SECRET",
  "config.DATABASE_URL",
  "config.DATABASE_LISTEN_URL",
  "config.HTTPS_PROXY",
  "config.HTTP_PROXY",
  "connectionString",
];

/** The same keys one level down (`*.apiKey`, `*.token`, `*.connectionString`, `*.headers.authorization`): see censorNested. */
const NESTED_SECRETS = ["apiKey", "token", "connectionString"] as const;

/**
 * Logs go to stderr as JSON lines, so stdout stays free for the terminal adapter's conversation.
 * Message text is logged only at debug level; tokens and keys never. `destination` is a file
 * descriptor, a path, or a stream (tests and the benchmark use it).
 */
export function createLogger(level: string = "info", destination: DestinationStream | number | string = 2, format: LogFormat = "json"): Logger {
  const stream = typeof destination === "object" ? destination : pino.destination(destination);
  const logger = pino(
    { level, redact: { paths: SECRET_PATHS, censor: CENSOR }, formatters: { log: censorNested } },
    format === "text" ? textLines(stream) : stream,
  );
  // A child's bindings are written on each of its lines without the log formatter: censored as
  // they are bound. Children are made from their parent's prototype chain, so theirs do the same.
  const bindChild = logger.child;
  logger.child = function (this: Logger, bindings, options) {
    return bindChild.call(this, censorNested(bindings), options);
  } as Logger["child"];
  return logger;
}

/**
 * The secrets one level down in an entry (an error's token, a request's headers.authorization),
 * replaced in a copy of the object that holds them: the caller's objects are left as they were.
 * pino's own wildcard paths (`*.token`) did the same through a redacting stringifier for every
 * field of every line (about 20 µs a line); this looks at each field's own keys and copies nothing
 * when there is no secret, which is every line but a rare failure's.
 */
function censorNested(entry: Record<string, unknown>): Record<string, unknown> {
  let censored: Record<string, unknown> | undefined;
  for (const key in entry) {
    const value = entry[key];
    if (typeof value !== "object" || value === null || !holdsSecret(value as Record<string, unknown>)) continue;
    censored ??= { ...entry };
    censored[key] = withoutSecrets(value as Record<string, unknown>);
  }
  return censored ?? entry;
}

function holdsSecret(value: Record<string, unknown>): boolean {
  for (const key of NESTED_SECRETS) if (value[key] !== undefined) return true;
  const headers = value.headers;
  return typeof headers === "object" && headers !== null && (headers as Record<string, unknown>).authorization !== undefined;
}

/** A copy with the secrets censored: the same prototype and properties, so an Error is still serialized as one. */
function withoutSecrets(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = Array.isArray(value)
    ? [...value]
    : Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value));
  if (value instanceof Error) {
    // Newer V8 (Node 22+) keeps `stack` as an accessor of the error it was captured on: on the copy
    // it would read nothing, so the copy gets the text itself.
    Object.defineProperty(copy, "stack", { value: value.stack, enumerable: false, writable: true, configurable: true });
  }
  for (const key of NESTED_SECRETS) if (value[key] !== undefined) censor(copy, key);
  const headers = value.headers as Record<string, unknown> | undefined;
  if (typeof headers === "object" && headers !== null && headers.authorization !== undefined) {
    const censoredHeaders = { ...headers };
    censor(censoredHeaders, "authorization");
    censor(copy, "headers", censoredHeaders);
  }
  return copy;
}

function censor(target: Record<string, unknown>, key: string, value: unknown = CENSOR): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
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

const LEVELS: readonly Level[] = ["fatal", "error", "warn", "info", "debug", "trace"];

/**
 * `parent.child(bindings)` without its cost until it is needed. A pino child with redaction costs
 * tens of microseconds to make, and the bot made one per turn and per tool call though most
 * never log. This one makes none for a level that is off, and logs a plain object (the usual
 * call) through `parent` with the bindings merged in front of it: the same fields, redacted the
 * same way. Anything else (an Error, a message alone, another property or method of the logger,
 * a level set on it) makes the real child once and goes through it from then on.
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let real: Logger | undefined;
  const child = () => (real ??= parent.child(bindings));
  const own: Record<string | symbol, unknown> = {
    child: (more: Record<string, unknown>, options?: object) => (real || options ? child().child(more, options) : lazyChild(parent, { ...bindings, ...more })),
  };
  for (const level of LEVELS) {
    own[level] = (first: unknown, ...rest: unknown[]) => {
      if (real) return real[level](first as object, ...(rest as [string]));
      if (!parent.isLevelEnabled(level)) return;
      if (isPlainObject(first)) return parent[level]({ ...bindings, ...first }, ...(rest as [string]));
      return child()[level](first as object, ...(rest as [string]));
    };
  }
  return new Proxy(own, {
    get(target, property) {
      if (Object.hasOwn(target, property)) return target[property];
      const logger = child();
      const value: unknown = Reflect.get(logger, property, logger);
      return typeof value === "function" ? value.bind(logger) : value;
    },
    set(_target, property, value) {
      return Reflect.set(child(), property, value);
    },
  }) as unknown as Logger;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
