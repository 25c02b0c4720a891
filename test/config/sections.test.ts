import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { sectionsOf } from "../../src/config/sections.js";

const sections = (env: Record<string, string> = {}) => sectionsOf(loadConfig(env));

describe("src/config/sections.ts: the configuration in the parts' sections", () => {
  it("gives each part its variables under the names it takes", () => {
    const read = sections({
      AGENT_MAX_ITERATIONS: "4",
      OPENAI_MAX_RETRIES: "1",
      SYSTEM_PROMPT: "Be brief.",
      MAX_IMAGES_PER_TURN: "2",
      RATE_LIMIT_PER_USER: "7",
      MAX_QUEUED_TURNS: "3",
      MEMORY_WINDOW: "6",
      APPROVAL_BY: "admin",
      MEMORY_SUMMARY_BATCH: "2",
      HISTORY_RETENTION_DAYS: "9",
      DEFAULT_TOOLS: "calculator",
      DAILY_TOKEN_BUDGET: "5000",
    });
    expect(read.agent).toMatchObject({ maxIterations: 4, retry: { maxRetries: 1 }, systemPrompt: "Be brief." });
    expect(read.attachments.maxImages).toBe(2);
    expect(read.turns.limits).toMatchObject({ ratePerUserPerMinute: 7, maxQueuedTurns: 3 });
    expect(read.policy).toMatchObject({ memoryWindow: 6, models: [read.agent.model] });
    expect(read.approvals.by).toBe("admin");
    expect(read.summaries.batchExchanges).toBe(2);
    expect(read.retention.historyDays).toBe(9);
    expect(read.tools.defaultTools).toEqual(["calculator"]);
    expect(read.budgets.defaults).toContainEqual(expect.objectContaining({ unit: "tokens", amount: 5000 }));
  });

  it("holds a lost place at most a turn's time, its approvals' waits and a minute: 28 minutes with the defaults", () => {
    expect(sections().turns.placeHeldAtMostMs).toBe(28 * 60_000);
    expect(sections({ TURN_TIMEOUT_MS: "60000", AGENT_MAX_ITERATIONS: "2", APPROVAL_TIMEOUT_MS: "30000" }).turns.placeHeldAtMostMs).toBe(180_000);
  });

  it("edits a streamed answer at STREAM_EDIT_INTERVAL_MS only while answers stream", () => {
    expect(sections({ STREAM_EDIT_INTERVAL_MS: "900" }).intake.streamEditIntervalMs).toBe(900);
    expect(sections({ STREAM_ANSWERS: "off", STREAM_EDIT_INTERVAL_MS: "900" }).intake.streamEditIntervalMs).toBeUndefined();
  });

  it("names the process run after INSTANCE_ID, else its shards, else main", () => {
    expect(sections().instance.name).toBe("main");
    expect(sections({ SHARDS: "0,1" }).instance.name).toBe("shard-0,1");
    expect(sections({ SHARDS: "0,1", INSTANCE_ID: "east" }).instance.name).toBe("east");
  });

  it("shows images to no model with VISION=off, and to every model with VISION=on", () => {
    expect(sections({ VISION: "off" }).attachments.seesImages("gpt-4o")).toBe(false);
    expect(sections({ VISION: "on" }).attachments.seesImages("some-text-model")).toBe(true);
  });
});
