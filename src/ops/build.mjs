// `npm run build`: bundles the bot from src/ into dist/ as plain
// JavaScript, so production runs `node dist/main.js` without compiling TypeScript at start-up
// (tsx costs about 60 MB of RSS and half a second before the first line of the bot runs).
//
// - Packages stay external: node_modules is loaded as it is (native modules, lazy SDKs).
// - Code splitting keeps every dynamic import() a chunk of its own, loaded only when it runs
//   (a platform's SDK when that platform starts, the MCP client when servers are configured).
// - All files land flat in dist/, so a module finds its siblings (the CPU worker) beside it.
// - Files read at run time (migrations/) are looked up from the package root, not from here.
//
// `npm start` builds before every start, so several starts at once from one folder (three bots,
// or a bot and the tests) build at once. Each would empty dist/ and write it again while another
// already runs from it ("does not provide an export named ..."). So a build holds a lock (the
// folder dist.lock), does nothing when dist/ was built from the same sources, and otherwise
// builds into dist.building-PID beside it and renames that into place: dist/ is always a whole build.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, version as esbuildVersion } from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));

// The bot and its worker threads (the calculator's, the SQLite checkpoints'); the operators' command-line tools, which
// `npm run` starts under tsx in a checkout and the image, which has neither tsx nor esbuild, runs as `node dist/doctor-cli.js`;
// and the plugin API, which `agent-bot/plugin` names under the image's condition (package.json "exports"), sharing
// the bot's own chunks.
const ENTRY_POINTS = [
  "src/main.ts",
  "src/tools/cpu/cpu-worker.ts",
  "src/store/sqlite/wal-checkpoint-worker.mjs",
  "src/tools/plugin-api.ts",
  ...["doctor", "backup", "migrate", "usage", "register-discord", "rotate-secrets"].map((tool) => `src/ops/${tool}-cli.ts`),
];

// The benchmark builds its own copy elsewhere with one more entry point (`--outdir DIR --entry FILE`),
// so what it measures is this same JavaScript, not the TypeScript compiled on the fly by tsx.
const { values: args } = parseArgs({ options: { outdir: { type: "string", default: "dist" }, entry: { type: "string", multiple: true, default: [] } } });

const outdir = resolve(root, args.outdir);
/** Records what a build was made from: its settings and every source file it read, by hash. */
const STAMP = ".build-stamp.json";
/** A build that takes longer than this while others wait is taken for stuck. */
const LOCK_WAIT_MS = 5 * 60_000;
/** A lock folder without its owner's pid after this long was left by a build killed as it took it. */
const OWNERLESS_LOCK_MS = 10_000;

const options = {
  absWorkingDir: root,
  entryPoints: [...ENTRY_POINTS, ...args.entry],
  entryNames: "[name]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

mkdirSync(dirname(outdir), { recursive: true });
await withLock(`${outdir}.lock`, async () => {
  const settings = settingsKey();
  if (upToDate(settings)) return;
  removeLeftovers();
  const building = `${outdir}.building-${process.pid}`;
  const result = await build({ ...options, outdir: building, metafile: true });
  const stamp = { settings, inputs: Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, hashOf(join(root, input))])) };
  writeFileSync(join(building, STAMP), `${JSON.stringify(stamp)}\n`);
  // Two renames, not a copy: the old build leaves whole and the new one arrives whole.
  const replaced = `${outdir}.old-${process.pid}`;
  try {
    renameSync(outdir, replaced);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  renameSync(building, outdir);
  rmSync(replaced, { recursive: true, force: true });
});

/** What the output depends on besides the sources: the settings, esbuild's version, this script, tsconfig.json. */
function settingsKey() {
  const hash = createHash("sha256").update(JSON.stringify(options)).update(esbuildVersion);
  for (const file of [fileURLToPath(import.meta.url), join(root, "tsconfig.json")]) hash.update(hashOf(file) ?? "none");
  return hash.digest("hex");
}

/** dist/ was built with these settings from sources that have not changed since (esbuild named every file it read). */
function upToDate(settings) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outdir, STAMP), "utf8"));
  } catch {
    return false;
  }
  return stamp.settings === settings && Object.entries(stamp.inputs).every(([input, hash]) => hashOf(join(root, input)) === hash);
}

function hashOf(file) {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return undefined;
  }
}

/** Folders of builds that were killed half way; only the lock's holder builds, so none is in use. */
function removeLeftovers() {
  const name = basename(outdir);
  for (const entry of readdirSync(dirname(outdir))) {
    if (entry.startsWith(`${name}.building-`) || entry.startsWith(`${name}.old-`)) rmSync(join(dirname(outdir), entry), { recursive: true, force: true });
  }
}

/** Runs `work` while holding the lock folder `lock` (mkdir is atomic: one process makes it); waits for another holder, bounded. */
async function withLock(lock, work) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    if (lockIsStale(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another build has held ${lock} for ${LOCK_WAIT_MS / 60_000} minutes; remove it if no build is running`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  writeFileSync(join(lock, "owner"), String(process.pid));
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The lock's owner is gone: its process no longer exists (killed mid-build), or it never wrote its pid. */
function lockIsStale(lock) {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, "owner"), "utf8"));
  } catch {
    pid = Number.NaN;
  }
  if (Number.isInteger(pid) && pid > 0) {
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return error.code === "ESRCH";
    }
  }
  try {
    return Date.now() - statSync(lock).mtimeMs > OWNERLESS_LOCK_MS;
  } catch {
    return false;
  }
}
