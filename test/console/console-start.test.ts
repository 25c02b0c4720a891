import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeOpenAI } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { freePort } from "../support/free-port.js";

/** The started bot refuses a console it could not keep safe, before it connects anywhere. */
describe("the console's start-up checks", () => {
  // biome-ignore lint/suspicious/noConfusingVoidType: a cleanup is a plain function or an async one
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(env: Record<string, string>) {
    const model = await FakeOpenAI.start();
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-console-start-"));
    cleanups.push(
      () => model.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const bot = startChildBot({ OPENAI_BASE_URL: model.url, DATABASE_PATH: join(dir, "bot.sqlite"), CONSOLE_PORT: String(await freePort()), ...env }, dir);
    cleanups.push(() => void bot.process.kill("SIGKILL"));
    bot.process.stdin.end();
    return { ...(await bot.exited), stderr: bot.stderr() };
  }

  it("refuses a console without a sign-in", async () => {
    const { code, stderr } = await start({});
    expect(code).toBe(2);
    expect(stderr).toContain("CONSOLE_PORT is set but no sign-in is: set CONSOLE_TOKEN");
  });

  it("refuses a bind off loopback unless CONSOLE_PUBLIC_URL is https", async () => {
    const refused = await start({ CONSOLE_TOKEN: "t".repeat(32), CONSOLE_HOST: "0.0.0.0", CONSOLE_PUBLIC_URL: "http://bot.example.com" });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("The console would listen on 0.0.0.0, which is not loopback: set CONSOLE_PUBLIC_URL to its https:// address");
    // behind TLS it starts (the terminal's piped input ends, and the bot with it)
    const allowed = await start({ CONSOLE_TOKEN: "t".repeat(32), CONSOLE_HOST: "0.0.0.0", CONSOLE_PUBLIC_URL: "https://bot.example.com" });
    expect(allowed.stderr).not.toContain("not loopback");
    expect(allowed.code).toBe(0);
  });
});
