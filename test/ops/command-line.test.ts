import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";

/** Every `npm run` tool of package.json (a script that runs a src/ops/*-cli.ts file), by script name. */
const scripts = (JSON.parse(readFileSync(resolve(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const TOOLS = Object.fromEntries(
  Object.entries(scripts).flatMap(([name, command]) => {
    const file = /^tsx (src\/ops\/[\w-]+-cli\.ts)$/.exec(command)?.[1];
    return file ? [[name, file]] : [];
  }),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool as `npm run NAME -- ARGS` does, in `cwd` (an empty folder: no .env, no database), with no configuration. */
function runTool(file: string, args: string[], cwd: string): Promise<Run> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, file), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

describe("the npm run tools' arguments", () => {
  it("covers every tool", () => {
    expect(Object.keys(TOOLS).sort()).toEqual(["backup", "docs:config", "doctor", "migrate", "register:discord", "rotate-secrets", "usage"]);
  });

  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-bot-cli-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(TOOLS))("npm run %s -- --help says what it does, its options and examples, and does nothing else", async (name, file) => {
    const run = await runTool(file, ["--help"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: npm run ${name}\\b`));
    expect(run.stdout).toMatch(/\n\nOptions:\n(.*\n)* {2}-h, --help +show this help\n/);
    expect(run.stdout).toMatch(new RegExp(`\n\nExamples:\n  npm run ${name}\\b`));
    // Nothing was written where it ran: no database opened, no backup named "--help".
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each(Object.entries(TOOLS))("npm run %s refuses an unknown option with one line and exit code 2", async (name, file) => {
    const run = await runTool(file, ["--verbose-please"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`npm run ${name}: unknown option --verbose-please; see npm run ${name} -- --help\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("backup takes one TARGET at most, usage's --csv no value, migrate no argument, doctor's --timeout a number", async () => {
    const backup = await runTool(TOOLS.backup!, ["one.sqlite", "two.sqlite"], dir);
    expect([backup.code, backup.stderr]).toEqual([2, "npm run backup: one TARGET at most (got 2); see npm run backup -- --help\n"]);
    const usage = await runTool(TOOLS.usage!, ["--csv=yes"], dir);
    expect([usage.code, usage.stderr]).toEqual([2, "npm run usage: option '--csv' does not take an argument; see npm run usage -- --help\n"]);
    const migrate = await runTool(TOOLS.migrate!, ["postgres"], dir);
    expect([migrate.code, migrate.stderr]).toEqual([2, "npm run migrate: unexpected argument postgres; see npm run migrate -- --help\n"]);
    const doctor = await runTool(TOOLS.doctor!, ["--timeout", "soon"], dir);
    expect([doctor.code, doctor.stderr]).toEqual([
      2,
      'npm run doctor: --timeout takes a number of seconds greater than 0 (got "soon"); see npm run doctor -- --help\n',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
