import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** tsx's loader, for `node --import` (how the command-line tools and test helpers run TypeScript). */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Variables of the developer's own environment that must not leak into the bot under test. */
const SCRUBBED =
  /^(OTEL_|OPENAI_|AGENT_|TOOL_|TURN_|MEMORY_|DATABASE_|DEFAULT_TOOLS|SYSTEM_PROMPT|LOG_LEVEL|DISCORD_|SLACK_|BOT_|(HTTPS?|NO)_PROXY$|(https?|no)_proxy$)/;

export interface ChildBot {
  process: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/**
 * What `npm start` runs after `node` (its flags and the built dist/main.js), read from package.json
 * so that the tests start the bot exactly as production does. dist/ is built once per test run
 * (test/support/build-dist.ts, vitest's globalSetup), as `prestart` builds it before `npm start`.
 */
export function startArguments(): string[] {
  const start = (JSON.parse(readFileSync(resolve(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const [command, ...args] = start.split(/\s+/);
  if (command !== "node") throw new Error(`npm start runs ${command}, not node: startChildBot does not know how to start it`);
  return args.map((arg) => (arg.startsWith("-") ? arg : resolve(PROJECT_ROOT, arg)));
}

/** Starts the built bot as `npm start` would, in its own process, with a clean environment plus `env`. */
export function startChildBot(env: Record<string, string>, cwd: string): ChildBot {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SCRUBBED.test(key)));
  const child = spawn(process.execPath, startArguments(), {
    cwd,
    env: { ...cleanEnv, ...env },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) =>
    // "close", not "exit": by then stdout and stderr have been read to the end.
    child.on("close", (code, signal) => resolvePromise({ code, signal })),
  );
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForOutput(pattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`);
        if (child.exitCode !== null) throw new Error(`the bot exited before printing ${pattern}; stderr: ${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
