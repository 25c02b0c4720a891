import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/child-bot.js";

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { bin: Record<string, string>; scripts: Record<string, string> };
const BIN = join(PROJECT_ROOT, pkg.bin["agent-bot"]!);

describe("agent-bot, the operators' tools under one name (package.json bin)", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  /** As an operator runs it, in a folder of their own with nothing of the bot's environment. */
  const agentBot = (args: string[], env: Record<string, string> = {}) => {
    dir ??= mkdtempSync(join(tmpdir(), "agent-bot-bin-"));
    return spawnSync(BIN, args, { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH!, HOME: dir, ...env } });
  };

  it("lists every tool npm run has, and refuses one it does not know with one line", () => {
    const help = agentBot(["--help"]);
    expect(help.status).toBe(0);
    for (const script of ["doctor", "backup", "migrate", "usage", "register:discord", "rotate-secrets"]) {
      expect(pkg.scripts).toHaveProperty(script);
      expect(help.stdout).toMatch(new RegExp(`^  ${script.replace(":", "-")} `, "m"));
    }
    const unknown = agentBot(["doctr"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('agent-bot: there is no tool "doctr"; see agent-bot --help\n');
  });

  it("runs the tool itself: its help, its verdicts and its exit code; backup --help writes no file", () => {
    expect(agentBot(["backup", "--help"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Usage: npm run backup/) });
    expect(readdirSync(dir!)).toEqual([]);

    const doctor = agentBot(["doctor"], { HEALTH_PORT: "nine" });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('✘ configuration: HEALTH_PORT must be a port number (got "nine")');
  });
});
