// `npm run build`: bundles the bot from src/ into dist/ as plain
// JavaScript, so production runs `node dist/main.js` without compiling TypeScript at start-up
// (tsx costs about 60 MB of RSS and half a second before the first line of the bot runs).
//
// - Packages stay external: node_modules is loaded as it is (native modules, lazy SDKs).
// - Code splitting keeps every dynamic import() a chunk of its own, loaded only when it runs
//   (a platform's SDK when that platform starts, the MCP client when servers are configured).
// - All files land flat in dist/, so a module finds its siblings (the CPU worker) beside it.
// - Files read at run time (migrations/) are looked up from the package root, not from here.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));

// The bot and its worker threads (the calculator's, the SQLite checkpoints'). The command-line tools (doctor, backup, ...) run
// once and briefly, so they stay on tsx: `npm run doctor` works the same in a checkout and an image.
const ENTRY_POINTS = ["src/main.ts", "src/tools/cpu/cpu-worker.ts", "src/store/sqlite/wal-checkpoint-worker.mjs"];

// The benchmark builds its own copy elsewhere with one more entry point (`--outdir DIR --entry FILE`),
// so what it measures is this same JavaScript, not the TypeScript compiled on the fly by tsx.
const { values: args } = parseArgs({ options: { outdir: { type: "string", default: "dist" }, entry: { type: "string", multiple: true, default: [] } } });

await rm(join(root, args.outdir), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: [...ENTRY_POINTS, ...args.entry],
  outdir: args.outdir,
  entryNames: "[name]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
