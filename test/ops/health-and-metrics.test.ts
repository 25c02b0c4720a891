import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../../src/config/env.js";
import { afterEach, describe, expect, it } from "vitest";
import { createHealthHandler, serverPort, startHealthServer } from "../../src/ops/health.js";
import { BotMetrics } from "../../src/ops/metrics.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

describe("the health and metrics endpoint", () => {
  let t: TestApp;
  let server: Server;
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it("reports turns, tool latency and tokens in Prometheus format, and the health of each part", async () => {
    const metrics = new BotMetrics();
    t = await startTestApp({ RATE_LIMIT_PER_USER: "1" }, { observer: metrics });
    metrics.bindGauges({ inFlightTurns: () => t.app.runner.inFlight, activeConversationQueues: () => t.app.runner.activeConversations });
    let discordConnected = true;
    const platforms = () => [{ name: "discord", health: () => ({ connected: discordConnected }) }];
    server = await startHealthServer(0, createHealthHandler({ store: t.app.store, metrics, platforms }), "127.0.0.1");
    const base = `http://127.0.0.1:${serverPort(server)}`;

    t.model.script(reply.toolCalls({ name: "calculator", args: { expression: "6*7" } }), reply.text("42"));
    await t.app.runner.submit(request("6*7?"), new RecordingSink());
    await t.app.runner.submit(request("again"), new RecordingSink()); // refused by the rate limit

    const metricsResponse = await fetch(`${base}/metrics`);
    expect(metricsResponse.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metricsResponse.text();
    expect(text).toContain('bot_turns_total{platform="test",status="answered",outcome="answer"} 1');
    expect(text).toContain('bot_turns_refused_total{platform="test",outcome="rate_limited"} 1');
    expect(text).toContain('bot_tool_calls_total{tool="calculator",result="ok"} 1');
    expect(text).toMatch(/bot_tool_duration_seconds_count\{tool="calculator"\} 1/);
    expect(text).toContain('bot_tokens_total{platform="test"} 30');
    expect(text).toContain("bot_turns_in_flight 0");
    // the process's memory, as a small server's operator watches it
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1]);
    expect(gauge("process_resident_memory_bytes")).toBeGreaterThan(gauge("nodejs_heap_size_used_bytes"));
    expect(gauge("nodejs_heap_size_total_bytes")).toBeGreaterThanOrEqual(gauge("nodejs_heap_size_used_bytes"));
    expect(gauge("nodejs_heap_size_used_bytes")).toBeGreaterThan(1_000_000);

    const healthy = await fetch(`${base}/healthz`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toMatchObject({ status: "ok", database: "ok", platforms: { discord: { connected: true } } });

    discordConnected = false;
    const degraded = await fetch(`${base}/healthz`);
    expect(degraded.status).toBe(503);
    expect(await degraded.json()).toMatchObject({ status: "degraded", platforms: { discord: { connected: false } } });

    expect((await fetch(`${base}/other`)).status).toBe(404);
  });

  it("/livez answers while the process runs; /readyz only once it takes work, with its platforms and database up", async () => {
    t = await startTestApp();
    let accepting = false;
    let slackConnected = true;
    let databaseUp = true;
    const store = { ping: () => (databaseUp ? Promise.resolve() : Promise.reject(new Error("down"))) };
    const platforms = () => [{ name: "slack", health: () => ({ connected: slackConnected }) }];
    server = await startHealthServer(0, createHealthHandler({ store, metrics: new BotMetrics(), platforms, accepting: () => accepting }), "127.0.0.1");
    const get = (path: string) => fetch(`http://127.0.0.1:${serverPort(server)}${path}`);

    // still starting: alive, not ready
    expect((await get("/livez")).status).toBe(200);
    const starting = await get("/readyz");
    expect(starting.status).toBe(503);
    expect(await starting.json()).toMatchObject({ ready: false });

    accepting = true;
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, database: "ok", platforms: { slack: { connected: true } } });

    slackConnected = false;
    expect((await get("/readyz")).status).toBe(503);
    slackConnected = true;
    databaseUp = false;
    const noDatabase = await get("/readyz");
    expect(noDatabase.status).toBe(503);
    expect(await noDatabase.json()).toMatchObject({ ready: false, database: "unreachable" });
    // alive all along: a database outage is no reason to restart the process
    expect(await (await get("/livez")).text()).toBe("ok\n");
  });

  it("binds loopback unless HEALTH_HOST says otherwise", async () => {
    t = await startTestApp();
    const config = loadConfig({ OPENAI_API_KEY: "k" });
    expect(config.HEALTH_HOST).toBe("127.0.0.1");
    expect(loadConfig({ OPENAI_API_KEY: "k", HEALTH_HOST: "0.0.0.0" }).HEALTH_HOST).toBe("0.0.0.0");
    const handler = createHealthHandler({ store: t.app.store, metrics: new BotMetrics(), platforms: () => [] });
    server = await startHealthServer(0, handler);
    expect((server.address() as AddressInfo).address).toBe("127.0.0.1");
  });
});
