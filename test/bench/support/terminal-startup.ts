import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchBotSettings } from "./bench-settings.js";
import { PROJECT_ROOT } from "../../support/child-bot.js";
import { startCommand, startEnvironment } from "./production-bot.js";

/** What the terminal platform prints when it is ready for a question (src/platforms/terminal). */
const PROMPT = "you> ";
const STARTUP_TIMEOUT_MS = 30_000;

/**
 * Milliseconds from spawning the start command, with no platform configured (so the terminal
 * starts), to the terminal's first prompt. The terminal prompts only on a TTY, as a person runs
 * it, so the command runs under `script` (util-linux), which gives it a pseudo-terminal. Ctrl-D
 * then ends the session.
 */
export async function terminalStartupMs(modelUrl: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "agent-bot-bench-terminal-"));
  // Empty platform settings, so a developer's .env in the project cannot start Discord or Slack instead.
  const env = startEnvironment({ ...benchBotSettings(modelUrl, dir), DISCORD_TOKEN: "", SLACK_BOT_TOKEN: "", SLACK_APP_TOKEN: "" });
  const started = performance.now();
  const child = spawn("script", ["-qfec", startCommand(), "/dev/null"], { cwd: PROJECT_ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    return await new Promise<number>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`no prompt within ${STARTUP_TIMEOUT_MS} ms; the terminal printed:\n${output}`)), STARTUP_TIMEOUT_MS);
      const onOutput = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        if (output.includes(PROMPT)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      };
      child.stdout.on("data", onOutput);
      child.stderr.on("data", onOutput);
      child.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "ENOENT" ? new Error("timing the terminal needs script(1), from util-linux (bsdutils on Debian)") : error),
      );
      void exited.then((code) => reject(new Error(`the terminal bot exited (code ${code}) before its prompt:\n${output}`)));
    });
  } finally {
    child.stdin.end("\x04");
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!stopped) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}
