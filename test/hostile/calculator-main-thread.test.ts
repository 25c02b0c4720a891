import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT, TSX_LOADER } from "../support/child-bot.js";

/**
 * An ESM resolve hook that refuses mathjs, registered on the main thread of a child process
 * (hooks registered this way do not reach worker threads, which start without the main
 * thread's flags).
 */
const REFUSE_MATHJS_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === "mathjs" || specifier.startsWith("mathjs/")) throw new Error("mathjs imported on the main thread by " + context.parentURL);
  return next(specifier, context);
}`;
const REGISTER_HOOK = `import { register } from "node:module"; register("data:text/javascript," + encodeURIComponent(${JSON.stringify(REFUSE_MATHJS_HOOK)}));`;

/** Loads every module `npm start` loads (main.ts's imports), builds the app and runs the calculator tool. */
const CHILD_SCRIPT = `
(async () => {
  for (const module of ["./src/platforms/index.ts", "./src/tools/extensions.ts", "./src/ops/health.ts", "./src/ops/metrics.ts"]) await import(module);
  const { createApp } = await import("./src/app.ts");
  const { loadConfig } = await import("./src/config/env.ts");
  const { silentLogger } = await import("./src/log.ts");
  const { closeCpuPool } = await import("./src/tools/cpu/cpu-pool.ts");
  const app = await createApp(loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", DATABASE_PATH: ":memory:" }), silentLogger());
  const ctx = { signal: new AbortController().signal, request: {}, logger: silentLogger(), llm: async () => "" };
  const answer = await app.registry.get("calculator").run({ expression: "6 * 7" }, ctx);
  const mathjsOnMainThread = Object.keys(require.cache).filter((path) => path.includes("node_modules/mathjs/")).length;
  console.log(JSON.stringify({ answer, mathjsOnMainThread }));
  await closeCpuPool();
  await app.close();
})().catch((error) => { console.error(error.message); process.exit(1); });
`;

describe("the calculator's library in the main process", () => {
  it("is never loaded there: the bot's modules import no mathjs, and a calculation runs in a worker thread", () => {
    const child = spawnSync(
      process.execPath,
      ["--import", TSX_LOADER, "--import", `data:text/javascript,${encodeURIComponent(REGISTER_HOOK)}`, "-e", CHILD_SCRIPT],
      { cwd: PROJECT_ROOT, encoding: "utf8", timeout: 60_000 },
    );

    expect(child.stderr).not.toMatch(/mathjs imported on the main thread/);
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout.trim())).toEqual({ answer: "42", mathjsOnMainThread: 0 });
  });
});
