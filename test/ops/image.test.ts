import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/child-bot.js";

const read = (file: string) => readFileSync(join(PROJECT_ROOT, file), "utf8");
const dockerfile = read("Dockerfile");
/** The stage the image runs: from the last FROM on. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
const compose = read("docker-compose.yml");
/** The bot's service in docker-compose.yml: its lines, up to the next service. */
const botService = compose.slice(compose.indexOf("\n  bot:"), compose.indexOf("\n  ollama:"));

/** Runs the built JavaScript as the image's CMD does (dist/ is built for the test run by vitest's globalSetup). */
const asInImage = (...args: string[]) => spawnSync(process.execPath, ["--conditions=agent-bot-built", ...args], { cwd: PROJECT_ROOT, encoding: "utf8" });

describe("the image (Dockerfile) and docker-compose.yml", () => {
  it("runs production packages only: the build tools are devDependencies, pruned before the runtime stage copies node_modules", () => {
    const pkg = JSON.parse(read("package.json")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const tool of ["esbuild", "tsx", "typescript", "ws", "vitest"]) {
      expect(pkg.dependencies, tool).not.toHaveProperty(tool);
      expect(pkg.devDependencies, tool).toHaveProperty(tool);
    }
    const build = dockerfile.slice(0, dockerfile.lastIndexOf("\nFROM "));
    expect(build).toMatch(/npm run -s build[\s\S]*npm prune --omit=dev/);
    expect(runtime).toContain("COPY --from=build /app/node_modules ./node_modules");
    // Neither the TypeScript sources nor the compiler are in the image; it runs the built bot.
    expect(runtime).not.toMatch(/^COPY (src|tsconfig)/m);
    expect(runtime).toMatch(/^CMD \["node", "--conditions=agent-bot-built", .*"dist\/main\.js"\]$/m);
    // agent-bot (package.json "bin") is on the PATH, for `docker compose exec bot agent-bot doctor`.
    expect(runtime).toMatch(/ln -s \/app\/bin\/agent-bot\.mjs \/usr\/local\/bin\/agent-bot/);
  });

  it("checks /livez, and carries the OCI labels", () => {
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/livez/m);
    for (const label of ["title", "description", "licenses", "version", "documentation"]) expect(runtime).toContain(`org.opencontainers.image.${label}=`);
  });

  it("compose starts before .env exists, with an init, rotated logs and the health port on the host's loopback only", () => {
    expect(botService).toMatch(/env_file:\n\s+- path: \.env\n\s+required: false/);
    expect(botService).toMatch(/^ {4}init: true$/m);
    expect(botService).toMatch(/logging:\n\s+driver: json-file\n\s+options:\n\s+max-size: "\d+m"\n\s+max-file: "\d+"/);
    expect(botService).toContain('- "127.0.0.1:9090:9090"');
  });

  it("under the image's condition `agent-bot/plugin` is the built API, and the operators' tools run built", () => {
    const resolved = asInImage("--input-type=module", "-e", 'console.log(import.meta.resolve("agent-bot/plugin"))');
    expect(resolved.stdout.trim()).toBe(`file://${join(PROJECT_ROOT, "dist/plugin-api.js")}`);
    const api = asInImage("--input-type=module", "-e", 'const { defineTool } = await import("agent-bot/plugin"); console.log(typeof defineTool)');
    expect(api.stdout.trim(), api.stderr).toBe("function");
    for (const tool of ["doctor", "backup", "migrate", "usage", "register-discord", "rotate-secrets"]) {
      const help = asInImage(`dist/${tool}-cli.js`, "--help");
      expect(help.status, `${tool}: ${help.stderr}`).toBe(0);
      expect(help.stdout).toMatch(/^Usage: /);
    }
  });
});
