import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FakeOpenAI, reply } from "../../fakes/fake-openai.js";
import { FakeSlack } from "../../fakes/slack/fake-slack.js";
import { appMention, eventCallback } from "../../fakes/slack/payloads.js";
import { SignedSlackSender } from "../../fakes/slack/signed-requests.js";
import { startChildBot } from "../../support/child-bot.js";
import { freePort } from "../../support/free-port.js";

describe("npm start with Slack configured", () => {
  // biome-ignore lint/suspicious/noConfusingVoidType: a cleanup is a plain function or an async one
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("starts the Slack adapter over HTTP, answers a signed mention, serves health on the same port, and shuts down on SIGTERM", async () => {
    const slack = await FakeSlack.start();
    const model = await FakeOpenAI.start();
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-slack-start-"));
    cleanups.push(
      () => slack.close(),
      () => model.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    model.script(reply.text("Hello from the started bot."));
    const port = await freePort();
    const bot = startChildBot(
      {
        OPENAI_BASE_URL: model.url,
        OPENAI_MAX_RETRIES: "0",
        DATABASE_PATH: join(dir, "bot.sqlite"),
        SLACK_BOT_TOKEN: slack.botToken,
        SLACK_SIGNING_SECRET: "start-secret",
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        HEALTH_PORT: String(port),
        LOG_LEVEL: "info",
      },
      dir,
    );
    cleanups.push(() => void bot.process.kill("SIGKILL"));

    await slack.waitFor(() => bot.stderr().includes("Slack events listening over HTTP"), { timeoutMs: 20_000, what: "the bot to start" });
    const ts = slack.nextTs();
    const sender = new SignedSlackSender(`http://127.0.0.1:${port}/slack/events`, "start-secret");
    const response = await sender.event(eventCallback(appMention({ user: "U1", channel: "C1", ts, text: `<@${slack.botUserId}> hi` })));
    expect(response.status).toBe(200);
    await slack.waitFor(() => slack.thread("C1", ts)[0], { what: "the answer" });
    expect(slack.thread("C1", ts)[0]!.text).toBe("Hello from the started bot.");

    // the health routes share Slack's server when HEALTH_PORT is PORT
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, database: "ok", platforms: { slack: { connected: true } } });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", database: "ok", platforms: { slack: { connected: true } } });
    // The answer is visible (streamed) a moment before its turn closes and is counted.
    const counted = 'bot_turns_total{platform="slack",status="answered",outcome="answer"} 1';
    let metrics = "";
    for (const deadline = Date.now() + 10_000; !metrics.includes(counted) && Date.now() < deadline; ) {
      metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      if (!metrics.includes(counted)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(metrics).toContain(counted);

    bot.process.kill("SIGTERM");
    expect((await bot.exited).code).toBe(0);
    expect(bot.stderr()).toContain("shutting down");
    expect(bot.stderr()).not.toContain(slack.botToken);
  });

  it("refuses to start over HTTP without a signing secret, saying what to set", async () => {
    const model = await FakeOpenAI.start();
    const dir = mkdtempSync(join(tmpdir(), "agent-bot-slack-start-"));
    cleanups.push(
      () => model.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const bot = startChildBot({ OPENAI_BASE_URL: model.url, DATABASE_PATH: join(dir, "bot.sqlite"), SLACK_BOT_TOKEN: "xoxb-anything" }, dir);
    cleanups.push(() => void bot.process.kill("SIGKILL"));
    expect((await bot.exited).code).toBe(1);
    expect(bot.stderr()).toMatch(/SLACK_APP_TOKEN \(Socket Mode\) or SLACK_SIGNING_SECRET/);
  });
});
