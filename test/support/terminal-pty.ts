import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "vitest";
import { FakeOpenAI } from "../fakes/fake-openai.js";
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
function startPtyBot(env: Record<string, string>, cwd: string, columns = 80): PtyBot {
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

export interface PtyFixtures {
  /** A fake model of the test's own, which the bot started by `startBot` talks to. */
  model: FakeOpenAI;
  /** A scratch folder of the test's own (the bot's working folder; its database is `bot.sqlite` there), removed afterwards. */
  dir: string;
  /** Starts the bot in a pseudo-terminal `columns` wide, on the test's model and folder; killed after the test if still running. */
  startBot: (columns?: number) => PtyBot;
}

/**
 * `it` for the terminal tests that type at a real pseudo-terminal: each test gets a fake model, a
 * scratch folder and a way to start the bot on them (`async ({ model, dir, startBot }) => …`).
 */
export const ptyTest = test.extend<PtyFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads what a fixture needs from its first parameter's pattern.
  model: async ({}, use) => {
    const model = await FakeOpenAI.start();
    await use(model);
    await model.close();
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  dir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-pty-"));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
  startBot: async ({ model, dir }, use) => {
    const started: PtyBot[] = [];
    await use((columns) => {
      const bot = startPtyBot({ OPENAI_BASE_URL: model.url, OPENAI_MAX_RETRIES: "0", DATABASE_PATH: join(dir, "bot.sqlite") }, dir, columns);
      started.push(bot);
      return bot;
    });
    for (const bot of started) {
      if (bot.process.exitCode !== null) continue;
      bot.process.kill("SIGKILL");
      await bot.exited;
    }
  },
});
