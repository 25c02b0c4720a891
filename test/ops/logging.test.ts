import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { createLogger } from "../../src/log.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";
import { RecordingSink, request } from "../support/test-app.js";

function capture() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe("the bot's logs", () => {
  let model: FakeOpenAI;
  let app: App;
  afterEach(async () => {
    await app.close();
    await model.close();
  });

  async function runTurn(level: string) {
    model = await FakeOpenAI.start();
    model.script(reply.toolCalls({ name: "calculator", args: { expression: "1/0 +" } }), reply.text("The private answer"));
    const { lines, stream } = capture();
    const config = loadConfig({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-very-secret", OPENAI_MAX_RETRIES: "0" });
    app = await createApp(config, createLogger(level, stream), { store: SqliteStore.open(":memory:") });
    await app.runner.submit(request("my private question"), new RecordingSink());
    await new Promise((resolve) => setImmediate(resolve));
    return lines;
  }

  it("at info: one summary line per turn with its id, tools, tokens and outcome, and no message text or secret", async () => {
    const lines = await runTurn("info");
    const summary = lines.find((line) => line.msg === "turn answered");
    expect(summary).toMatchObject({ platform: "test", workspace: "w1", outcome: "answer", tools: ["calculator"], tokens: 30 });
    expect(summary.turnId).toMatch(/^[0-9a-f-]{36}$/);
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain("my private question");
    expect(everything).not.toContain("The private answer");
    expect(everything).not.toContain("sk-very-secret");
  });

  it("at debug: message text appears, every line of the turn carries the turn id, still no secret", async () => {
    const lines = await runTurn("debug");
    const turnLines = lines.filter((line) => line.turnId);
    expect(turnLines.map((line) => line.msg)).toEqual(expect.arrayContaining(["turn started", "turn answered", "turn answer"]));
    expect(new Set(turnLines.map((line) => line.turnId)).size).toBe(1);
    expect(JSON.stringify(lines)).toContain("my private question");
    expect(JSON.stringify(lines)).not.toContain("sk-very-secret");
  });
});
