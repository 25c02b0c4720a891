import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { FakeDiscord } from "../fakes/discord/fake-discord.js";
import type { MessagePayload } from "../fakes/discord/payloads.js";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";
import { PROJECT_ROOT, startChildBot, type ChildBot } from "../support/child-bot.js";
import { isAnswerTo } from "../support/discord-bot.js";
import { freePort } from "../support/free-port.js";

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when it is missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];
export const TOKEN = "console-test-token-0123456789abcdef";
/** Screenshots for docs/console.md are rewritten only when asked (UPDATE_SCREENSHOTS=1), never by CI. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1" ? join(PROJECT_ROOT, "docs/images") : undefined;

/**
 * The bot started as users start it (dist/main.js, the start script's flags) on the fake Discord
 * and the fake model, with the console on, and a headless Chromium to drive it.
 */
export class ConsoleHarness {
  private constructor(
    readonly bot: ChildBot,
    readonly discord: FakeDiscord,
    readonly model: FakeOpenAI,
    readonly browser: Browser,
    readonly base: string,
    readonly port: number,
    private readonly dir: string,
  ) {}

  /** `env`: more of the bot's variables; `world`: changes to the fake Discord before the bot connects. */
  static async start(options: { env?: Record<string, string>; world?: (discord: FakeDiscord) => void } = {}): Promise<ConsoleHarness> {
    const model = await FakeOpenAI.start();
    model.otherwise(reply.text("a plain answer", { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }));
    const discord = await FakeDiscord.start();
    options.world?.(discord);
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-console-"));
    const port = await freePort();
    const bot = startChildBot(
      {
        OPENAI_BASE_URL: model.url,
        OPENAI_MAX_RETRIES: "0",
        DATABASE_PATH: join(dir, "bot.sqlite"),
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.apiUrl,
        LOG_LEVEL: "info",
        CONSOLE_PORT: String(port),
        CONSOLE_TOKEN: TOKEN,
        MODEL_PRICES: "gpt-4o-mini=0.15/0.6",
        ...options.env,
      },
      dir,
    );
    const deadline = Date.now() + 30_000;
    while (!bot.stderr().includes("the operator's console is listening") || !bot.stderr().includes("connected to Discord")) {
      if (bot.process.exitCode !== null || Date.now() > deadline) throw new Error(`the bot did not start its console: ${bot.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    return new ConsoleHarness(bot, discord, model, browser, `http://127.0.0.1:${port}`, port, dir);
  }

  get workspace(): string {
    return `discord:${this.discord.guild.id}`;
  }

  /** Asks the bot in #general (or another channel) and waits for its answer. */
  async ask(text: string, channelId = this.discord.general.id): Promise<MessagePayload> {
    const question = await this.discord.dispatchMessage({
      author: this.discord.member,
      channelId,
      content: `${FakeDiscord.mention(this.discord.bot)} ${text}`,
      mentions: [this.discord.bot],
    });
    await this.discord.waitFor((call) => isAnswerTo(call, question), 20_000);
    return question;
  }

  /** A new browser context (its own cookies), signed in with the token through the login form. */
  async signedIn(): Promise<Page> {
    const page = await (await this.browser.newContext({ baseURL: this.base, viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto("/login");
    await page.fill("input[name=token]", TOKEN);
    await Promise.all([page.waitForURL(`${this.base}/`), page.click("button[type=submit]")]);
    return page;
  }

  async anonymous(): Promise<Page> {
    return (await this.browser.newContext({ baseURL: this.base })).newPage();
  }

  async screenshot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `console-${name}.png`), fullPage: true });
  }

  /** Rows of the bot's database, read as it is now. */
  rows<T>(sql: string, ...params: unknown[]): T[] {
    const db = new Database(join(this.dir, "bot.sqlite"), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  /** A raw request, with any Host header (fetch will not send a foreign one). */
  raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: this.port, path, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  async close(): Promise<void> {
    await this.browser.close();
    this.bot.process.kill("SIGTERM");
    await this.bot.exited;
    await this.discord.close();
    await this.model.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
