import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../../support/child-bot.js";

type BotEntry = typeof import("./bot-entry.js");

/** Inside the project, so the bundle finds node_modules and migrations/ as dist/ does. */
const OUTDIR = "node_modules/.cache/bench-bot";
const ENTRY = "test/bench/support/bot-entry.ts";

let loaded: Promise<BotEntry> | undefined;
let ready: BotEntry | undefined;

/**
 * Builds the bot with `npm run build`'s own script and settings, plus the benchmark's entry
 * point, into a folder of its own: production runs `node dist/main.js`, not tsx, and tsx's
 * compiled code differs (it names every function it creates at run time). Run once per
 * benchmark, before any part, so the child processes that parts start only load it.
 */
export function buildBenchBot(): void {
  execFileSync(process.execPath, [join(PROJECT_ROOT, "src/ops/build.mjs"), "--outdir", OUTDIR, "--entry", ENTRY], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * The bundled bot's exports. Load it before replacing the global fetch (in-process-model.ts):
 * the bot's clients pick their transport by comparing with the fetch seen when it loaded.
 */
export function builtBot(): Promise<BotEntry> {
  loaded ??= (import(pathToFileURL(join(PROJECT_ROOT, OUTDIR, "bot-entry.js")).href) as Promise<BotEntry>).then((entry) => (ready = entry));
  return loaded;
}

/** The bundled bot, once `builtBot()` loaded it (every bench app did): for the floors' model clients. */
export function loadedBot(): BotEntry {
  if (!ready) throw new Error("the bundled bot is not loaded yet: await builtBot() first");
  return ready;
}
