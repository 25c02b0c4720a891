import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatVerdicts, runDoctor } from "../../src/ops/doctor.js";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";
import { useModelAndFolder } from "../support/model-and-folder.js";
import { notesServer } from "../support/notes-mcp.js";

const pluginDir = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}/`, import.meta.url));

/** `npm run doctor -- ARGS` as an operator runs it: its own process, in `cwd`, with `env` only. */
function runDoctorCli(env: Record<string, string>, cwd: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, resolve(PROJECT_ROOT, "src/ops/doctor-cli.ts"), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

describe("npm run doctor, beyond the basics", () => {
  const scratch = useModelAndFolder("agent-bot-doctor-more-");
  const base = () => ({ OPENAI_BASE_URL: scratch.model.url, OPENAI_MODEL: "fake-model", DATABASE_PATH: join(scratch.dir, "bot.sqlite"), TOOLS_DIR: "none" });

  it("shows a warning as a warning: a model the server does not list is ⚠, not ✔, and fails nothing", async () => {
    const verdicts = await runDoctor({ ...base(), OPENAI_MODEL: "gpt-4o-mni" });
    const report = formatVerdicts(verdicts);
    expect(report).toContain(
      `⚠ model: ${scratch.model.url} answers with 1 model(s); gpt-4o-mni is not in its list (some servers list no models; check the name)`,
    );
    expect(report).not.toContain("✔ model");
    expect(report).toMatch(/\nAll checks passed, 1 warning\(s\)\.$/);
  });

  it("prints its verdicts only: the SDKs' own log lines never reach its output", async () => {
    const run = await runDoctorCli(
      { ...base(), SLACK_BOT_TOKEN: "xoxb-1", SLACK_API_URL: "http://127.0.0.1:9/api/", DISCORD_TOKEN: "d-1", DISCORD_API_URL: "http://127.0.0.1:9" },
      scratch.dir,
    );
    expect(run.code).toBe(1);
    // Slack's client used to add "[WARN]  web-api:WebClient:0 http request failed fetch failed".
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.slice(0, -1).every((line) => /^[✔⚠✘] /.test(line))).toBe(true);
    expect(lines).toContain("✘ slack token: A request error occurred: fetch failed");
    expect(lines.at(-1)).toBe("2 check(s) failed.");
  });

  it("checks each MCP server: one that answers lists its tools, one that exits says why", async () => {
    const config = join(scratch.dir, "mcp.json");
    const { command, args } = notesServer() as { command: string; args: string[] };
    const exits = { command: process.execPath, args: ["-e", "console.error('NOTES_API_KEY is not set'); process.exit(3)"] };
    writeFileSync(config, JSON.stringify({ mcpServers: { notes: { command, args }, broken: exits } }));

    const verdicts = await runDoctor({ ...base(), MCP_CONFIG: config });
    expect(verdicts.find((v) => v.item === "MCP server notes")).toEqual({
      item: "MCP server notes",
      status: "pass",
      detail: expect.stringMatching(/^answers with \d+ tool\(s\): add_note, list_notes, .* and \d+ more$/),
    });
    expect(verdicts.find((v) => v.item === "MCP server broken")).toEqual({
      item: "MCP server broken",
      status: "fail",
      detail: expect.stringMatching(/^did not start: .+ \(it said: NOTES_API_KEY is not set\)$/),
    });
  });

  it("gives a server that never answers until the timeout, then says so", async () => {
    const config = join(scratch.dir, "mcp.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { silent: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] } } }));
    const verdicts = await runDoctor({ ...base(), MCP_CONFIG: config }, { timeoutMs: 1_000 });
    expect(verdicts.find((v) => v.item === "MCP server silent")).toEqual({
      item: "MCP server silent",
      status: "fail",
      detail: expect.stringMatching(/^did not start: .*timed out/i),
    });
  });

  it("names an unreadable or invalid MCP_CONFIG", async () => {
    const verdicts = await runDoctor({ ...base(), MCP_CONFIG: join(scratch.dir, "missing.json") });
    expect(verdicts.at(-1)).toEqual({ item: "MCP servers", status: "fail", detail: `cannot read ${join(scratch.dir, "missing.json")} (ENOENT) (MCP_CONFIG)` });
  });

  it("loads each plugin of TOOLS_DIR and says which load and which are skipped, and why", async () => {
    const verdicts = await runDoctor({ ...base(), TOOLS_DIR: pluginDir("mixed") });
    const report = formatVerdicts(verdicts);
    expect(report).toContain(`✔ tools folder: ${pluginDir("mixed")}: 7 plugin file(s)`);
    expect(report).toContain("✔ plugin a-word-count.ts: adds word_count");
    expect(report).toContain('✘ plugin calculator-again.ts: skipped: a tool named "calculator" already exists');
    expect(report).toMatch(/✘ plugin broken-syntax\.mjs: skipped: it could not be loaded: /);
    expect(report).toMatch(/\n6 check\(s\) failed\.$/);
  });

  it("checks TOOLS_DIR: a missing default is fine, a missing folder named on purpose or a file is a warning", async () => {
    const where = (env: Record<string, string>) => runDoctor({ ...base(), ...env }).then((verdicts) => verdicts.find((v) => v.item === "tools folder"));
    // The default (./tools) is relative to where the bot runs; this test process runs in the project.
    const defaultDir = await runDoctor({ ...base(), TOOLS_DIR: "" }).then((verdicts) => verdicts.find((v) => v.item === "tools folder"));
    expect(defaultDir).toEqual({ item: "tools folder", status: "pass", detail: "no ./tools folder: no plugins" });
    const missing = join(scratch.dir, "my-tools");
    expect(await where({ TOOLS_DIR: missing })).toEqual({
      item: "tools folder",
      status: "warning",
      detail: `${missing} does not exist: no plugins are loaded (TOOLS_DIR)`,
    });
    const file = join(scratch.dir, "tools.ts");
    writeFileSync(file, "export {};\n");
    expect(await where({ TOOLS_DIR: file })).toEqual({
      item: "tools folder",
      status: "warning",
      detail: `${file} is not a folder: no plugins are loaded (TOOLS_DIR)`,
    });
    expect(await where({ TOOLS_DIR: "none" })).toEqual({ item: "tools folder", status: "pass", detail: "plugins are off (TOOLS_DIR=none)" });
  });

  it.skipIf(process.getuid?.() === 0)("fails a TOOLS_DIR the bot cannot read (not run as root, who reads everything)", async () => {
    const locked = join(scratch.dir, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o000);
    try {
      const verdicts = await runDoctor({ ...base(), TOOLS_DIR: locked });
      expect(verdicts.find((v) => v.item === "tools folder")).toEqual({
        item: "tools folder",
        status: "fail",
        detail: `cannot read ${locked} (EACCES): the bot would not start (TOOLS_DIR)`,
      });
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});
