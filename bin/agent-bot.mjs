#!/usr/bin/env node
// `agent-bot TOOL [OPTIONS]`: the operators' tools under one name (package.json "bin"; `npm link`
// in a checkout, on the PATH in the image). Each runs in a process of its own, as `npm run TOOL`
// would: from source under tsx where the sources and tsx are here (a checkout), else built
// (dist/TOOL-cli.js, the image, with the condition that makes `agent-bot/plugin` the built API).
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const TOOLS = {
  start: "starts the bot (as npm start: builds first where it can)",
  doctor: "checks the configuration, the database, the model, the platforms, plugins and MCP servers",
  backup: "copies the SQLite database safely while the bot runs",
  migrate: "applies the schema, or copies SQLite into PostgreSQL (--to-postgres)",
  usage: "reports turns, tokens and cost per workspace",
  "register-discord": "registers the Discord slash commands",
  "rotate-secrets": "re-encrypts the stored tokens with a new SECRETS_KEY",
};
const HELP = `Usage: agent-bot TOOL [OPTIONS]

${Object.entries(TOOLS)
  .map(([tool, what]) => `  ${tool.padEnd(17)}${what}`)
  .join("\n")}

agent-bot TOOL --help says what TOOL takes.
`;

const [tool, ...args] = process.argv.slice(2);
if (tool === undefined || tool === "--help" || tool === "-h") {
  process.stdout.write(HELP);
  process.exit(tool === undefined ? 2 : 0);
}
if (!Object.hasOwn(TOOLS, tool)) {
  process.stderr.write(`agent-bot: there is no tool "${tool}"; see agent-bot --help\n`);
  process.exit(2);
}

const BUILT = "--conditions=agent-bot-built";
/** tsx's loader, by its address (node --import would look for it from the caller's folder); none in the image. */
const tsx = (() => {
  try {
    return import.meta.resolve("tsx");
  } catch {
    return undefined;
  }
})();
const fromSource = tsx !== undefined && existsSync(`${root}src/ops/build.mjs`);

if (tool === "start") {
  // npm start's own flags, read where it keeps them; built first, as prestart does, where the build can run.
  const start = JSON.parse(readFileSync(`${root}package.json`, "utf8"))
    .scripts.start.split(/\s+/)
    .slice(1);
  if (fromSource) {
    const built = await run([`${root}src/ops/build.mjs`]);
    if (built !== 0) process.exit(built);
  }
  process.exit(await run([...start.slice(0, -1), `${root}${start.at(-1)}`, ...args]));
}
const source = `${root}src/ops/${tool}-cli.ts`;
process.exit(await run(fromSource && existsSync(source) ? ["--import", tsx, source, ...args] : [BUILT, `${root}dist/${tool}-cli.js`, ...args]));

/** Runs node with `nodeArgs` in the caller's folder, sharing its terminal; resolves with its exit code. */
function run(nodeArgs) {
  const child = spawn(process.execPath, nodeArgs, { stdio: "inherit" });
  // Ctrl-C reaches the child from the terminal itself; a signal sent to this process alone is passed on.
  const ignore = () => {};
  const pass = (signal) => child.kill(signal);
  process.on("SIGINT", ignore);
  for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, pass);
  return new Promise((resolve) => {
    child.on("error", (error) => {
      process.stderr.write(`agent-bot: could not start node: ${error.message}\n`);
      process.exit(1);
    });
    child.on("close", (code, signal) => {
      process.off("SIGINT", ignore);
      for (const name of ["SIGTERM", "SIGHUP"]) process.off(name, pass);
      resolve(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
    });
  });
}
