import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";
import { PROJECT_ROOT } from "../support/child-bot.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command in `cwd` with a clean environment plus `env`, `input` on its stdin. */
function run(command: string, args: string[], cwd: string, env: Record<string, string>, input = ""): Promise<Run> {
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

/**
 * A checkout of its own (the project's files, its node_modules linked), so that these builds race
 * on a dist/ no other test runs from, and start from no dist/ at all as a fresh clone does.
 */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-checkout-"));
  for (const entry of ["package.json", "tsconfig.json", "src", "migrations"]) cpSync(join(PROJECT_ROOT, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** `npm run build` in `dir`. */
const build = (dir: string) => run(process.execPath, [join(dir, "src/ops/build.mjs")], dir, {});

describe("npm start, three at once from one folder", () => {
  let dir: string;
  let model: FakeOpenAI;
  beforeEach(async () => {
    dir = checkout();
    model = await FakeOpenAI.start();
    model.otherwise(reply.text("hello from the built bot"));
  });
  afterEach(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds dist/ and starts all three: each answers, none crashes on a half-written dist/", { timeout: 120_000 }, async () => {
    const starts = [1, 2, 3].map((n) =>
      run("npm", ["start", "--silent"], dir, { OPENAI_BASE_URL: model.url, DATABASE_PATH: join(dir, `bot-${n}.sqlite`) }, "hi\n"),
    );
    const results = await Promise.all(starts);
    for (const result of results) {
      expect(result.stderr).toBe("");
      expect(result.stdout).toContain("bot: hello from the built bot");
      expect(result.code).toBe(0);
    }
    // Nothing left beside dist/ (no temporary build, no lock).
    expect(readdirSync(dir).filter((name) => name.startsWith("dist"))).toEqual(["dist"]);
  });

  it("three builds at once leave an up-to-date dist/ as it is: a bot could start from it at any moment", { timeout: 120_000 }, async () => {
    expect((await build(dir)).code).toBe(0);
    const main = join(dir, "dist/main.js");
    const built = readFileSync(main, "utf8");
    const seen = new Set<string>();
    let running = true;
    const builds = Promise.all([build(dir), build(dir), build(dir)]).finally(() => (running = false));
    while (running) {
      seen.add(existsSync(main) ? (readFileSync(main, "utf8") === built ? "whole" : "changed") : "missing");
      await new Promise((resolveWait) => setTimeout(resolveWait, 2));
    }
    for (const result of await builds) expect([result.code, result.stderr]).toEqual([0, ""]);
    expect([...seen]).toEqual(["whole"]);
  });

  it("after a change of the sources, three builds at once all succeed and leave the new build whole", { timeout: 120_000 }, async () => {
    expect((await build(dir)).code).toBe(0);
    const main = join(dir, "src/main.ts");
    writeFileSync(main, readFileSync(main, "utf8").replace("No language model is configured", "No model is configured"));
    const results = await Promise.all([build(dir), build(dir), build(dir)]);
    for (const result of results) expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(readFileSync(join(dir, "dist/main.js"), "utf8")).toContain("No model is configured");
    expect(readdirSync(dir).filter((name) => name.startsWith("dist"))).toEqual(["dist"]);

    const bot = await run(process.execPath, ["dist/main.js"], dir, { OPENAI_BASE_URL: model.url, DATABASE_PATH: join(dir, "bot.sqlite") }, "hi\n");
    expect(bot.stdout).toContain("bot: hello from the built bot");
    expect(bot.code).toBe(0);
  });

  it("takes over from a build that was killed: its lock and half-built folder are removed", { timeout: 120_000 }, async () => {
    // A pid no process has (above the kernel's pid_max), as a killed build leaves it.
    mkdirSync(join(dir, "dist.lock"));
    writeFileSync(join(dir, "dist.lock/owner"), "99999999");
    mkdirSync(join(dir, "dist.building-99999999"));
    const result = await build(dir);
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(readdirSync(dir).filter((name) => name.startsWith("dist"))).toEqual(["dist"]);
    expect(existsSync(join(dir, "dist/main.js"))).toBe(true);
  });
});
