import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { startArguments } from "./child-bot.js";

/** Variables of the developer's own environment that must not leak into the bot under test. */
const SCRUBBED = /^(OPENAI_|AGENT_|TOOL_|TURN_|MEMORY_|DATABASE_|DEFAULT_TOOLS|SYSTEM_PROMPT|LOG_LEVEL|DISCORD_|SLACK_|BOT_|COLUMNS|LINES)/;
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]|\r/g;

export interface PtyBot {
  process: ChildProcessWithoutNullStreams;
  /** Everything the terminal showed, escape sequences and carriage returns removed. */
  screen(): string;
  /** What the terminal showed as it was sent, escape sequences included. */
  raw(): string;
  /** Types `keys` at the terminal ("\r" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D). */
  type(keys: string): void;
  waitFor(condition: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * The built bot as a person runs it: `npm start`'s command in a real pseudo-terminal, through
 * script(1) from util-linux, sized `columns` wide. What is typed goes to the terminal as keys
 * (so Ctrl-C is a keypress the bot's raw-mode input reads, not a signal sent by the test).
 */
export function startPtyBot(env: Record<string, string>, cwd: string, columns = 80): PtyBot {
  const command = `stty cols ${columns} rows 50; exec ${[process.execPath, ...startArguments()].map(quote).join(" ")}`;
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SCRUBBED.test(key)));
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { ...cleanEnv, TERM: "xterm-256color", ...env } });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const screen = () => out.replace(ESCAPES, "");
  return {
    process: child,
    screen,
    raw: () => out,
    type: (keys) => child.stdin.write(keys),
    exited,
    async waitFor(condition, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition(screen())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the terminal showed:\n${screen()}`);
        if (child.exitCode !== null) throw new Error(`the bot exited before ${what}; the terminal showed:\n${screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
