import { execSync, spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { PROJECT_ROOT } from "../../support/child-bot.js";

/** Variables of the developer's own environment that must not leak into the bot under test. */
const SCRUBBED = /^(OPENAI_|AGENT_|TOOL_|TURN_|MEMORY_|DATABASE_|DEFAULT_TOOLS|SYSTEM_PROMPT|LOG_|DISCORD_|SLACK_|BOT_|HEALTH_PORT$|PORT$|NODE_OPTIONS$)/;

let prepared = false;

/**
 * The command production runs: package.json's start script, run as `npm start` runs it (through
 * `sh -c` in the project's root, node_modules/.bin first on PATH) minus npm's own process, which
 * a service manager or container would not keep around either. Its prestart script (the build)
 * runs once, before the first start, and is not timed: a container image is built before it
 * starts. Read at run time, so a changed start script is what gets measured.
 */
export function startCommand(): string {
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
  if (!scripts.start) throw new Error("package.json has no start script");
  if (scripts.prestart && !prepared) {
    execSync(scripts.prestart, { cwd: PROJECT_ROOT, env: startEnvironment({}), stdio: ["ignore", "ignore", "inherit"] });
    prepared = true;
  }
  return scripts.start;
}

/** The environment the start command gets: this one without the bot's own settings, plus `env`. */
export function startEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !SCRUBBED.test(key)));
  return { ...clean, PATH: [join(PROJECT_ROOT, "node_modules/.bin"), process.env.PATH].join(delimiter), ...env };
}

export interface ProductionBot {
  child: ChildProcess;
  /** The last part of what the bot wrote on stderr (its logs), for error messages. */
  logTail(): string;
  /** Waits until GET `url` answers 200, or throws (with the logs) after `timeoutMs`. */
  waitHealthy(url: string, timeoutMs?: number): Promise<void>;
  /** Resident memory of every process the start command left running (sh, tsx, node…), in MB. */
  rss(): ProcessTreeRss;
  /** SIGTERM to the whole process group, then waits until every process of it has ended (SIGKILL after a while). */
  stop(): Promise<void>;
}

export interface ProcessTreeRss {
  totalMb: number;
  processes: { pid: number; command: string; rssMb: number }[];
}

const LOG_TAIL_CHARS = 8_000;

/**
 * Starts the bot with the start command in its own process group; stderr kept (its tail). stdin and
 * stdout are ignored, or with `piped` (the terminal, piped as a script runs it) the caller's to use.
 */
export function startProductionBot(env: Record<string, string>, piped = false): ProductionBot {
  const child = spawn("sh", ["-c", startCommand()], {
    cwd: PROJECT_ROOT,
    env: startEnvironment(env),
    detached: true,
    stdio: [piped ? "pipe" : "ignore", piped ? "pipe" : "ignore", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-LOG_TAIL_CHARS);
  });
  return {
    child,
    logTail: () => log,
    async waitHealthy(url, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the bot exited (code ${child.exitCode}) before it was healthy:\n${log}`);
        const status = await fetch(url).then(
          (response) => response.status,
          () => 0,
        );
        if (status === 200) return;
        if (Date.now() > deadline) throw new Error(`the bot was not healthy at ${url} within ${timeoutMs} ms:\n${log}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    rss: () => processTreeRss(child.pid!),
    stop: () => stopGroup(child.pid!),
  };
}

const STOP_TIMEOUT_MS = 15_000;

/** The group is this process's children alone (started detached), so signalling it touches nothing else. */
async function stopGroup(groupId: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-groupId, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(-groupId, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive()) {
    if (Date.now() > deadline) {
      process.kill(-groupId, "SIGKILL");
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sums VmRSS over `root` and its descendants, from /proc (Linux). */
function processTreeRss(root: number): ProcessTreeRss {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the command name is in parentheses and may hold spaces: the fields after the last ")" are fixed
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  const processes = tree.flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      // paths relative to the project, so a report names no directory of the machine it ran on
      return [{ pid, command: command.replaceAll(`${PROJECT_ROOT}/`, "").slice(0, 160), rssMb: kb / 1024 }];
    } catch {
      return [];
    }
  });
  return { totalMb: processes.reduce((total, p) => total + p.rssMb, 0), processes };
}
