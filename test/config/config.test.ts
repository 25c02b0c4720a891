import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("configuration from the environment", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      OPENAI_MODEL: "gpt-4o-mini",
      AGENT_PROTOCOL: "tools",
      AGENT_MAX_ITERATIONS: 5,
      AGENT_EARLY_STOPPING: "generate",
      TOOL_TIMEOUT_MS: 15_000,
      TURN_TIMEOUT_MS: 120_000,
      MEMORY_WINDOW: 5,
      DATABASE_PATH: "./data/bot.sqlite",
      DISCORD_ALLOW_DMS: true,
      VISION: "auto",
      MAX_IMAGES_PER_TURN: 5,
      MAX_IMAGE_BYTES: 10 * 1024 * 1024,
      MAX_TEXT_ATTACHMENT_BYTES: 100 * 1024,
      MAX_REPLY_CHAIN: 5,
      DISCORD_CDN_URL: "https://cdn.discordapp.com/",
      SLACK_FILES_URL: "https://files.slack.com/",
    });
    expect(config.DEFAULT_TOOLS).toEqual([
      "calculator",
      "circumference",
      "hypotenuse",
      "get_time",
      "convert_currency",
      "wikipedia",
      "arxiv",
      "web_search",
      "search_history",
      "create_reminder",
    ]);
  });

  it("reads lists, 'all', booleans and numbers", () => {
    const config = loadConfig({ DEFAULT_TOOLS: " all ", MEMORY_WINDOW: "8", DISCORD_ALLOW_DMS: "false", BOT_ADMIN_USER_IDS: "1, 2,," });
    expect(config.DEFAULT_TOOLS).toBe("all");
    expect(config.MEMORY_WINDOW).toBe(8);
    expect(config.DISCORD_ALLOW_DMS).toBe(false);
    expect(config.BOT_ADMIN_USER_IDS).toEqual(["1", "2"]);
  });

  it("names every wrong variable and what it expects", () => {
    const message = configError({
      AGENT_PROTOCOL: "magic",
      TOOL_TIMEOUT_MS: "-5",
      OPENAI_BASE_URL: "not a url",
      DISCORD_ALLOW_DMS: "maybe",
      VISION: "yes",
      MAX_REPLY_CHAIN: "-1",
      SLACK_FILES_URL: "files.slack.com",
    });
    expect(message).toContain('AGENT_PROTOCOL must be tools or react (got "magic")');
    expect(message).toContain('TOOL_TIMEOUT_MS must be a whole number greater than 0 (got "-5")');
    expect(message).toContain('OPENAI_BASE_URL must be a URL such as http://127.0.0.1:11434/v1 (got "not a url")');
    expect(message).toContain('DISCORD_ALLOW_DMS must be true or false (got "maybe")');
    expect(message).toContain('VISION must be auto, on or off (got "yes")');
    expect(message).toContain('MAX_REPLY_CHAIN must be a whole number, 0 or more (got "-1")');
    expect(message).toContain('SLACK_FILES_URL must be an http(s) URL (got "files.slack.com")');
  });

  it("reads the admin controls: approvals, model choices, prices and the per-user budget", () => {
    expect(loadConfig({})).toMatchObject({ APPROVAL_BY: "asker", APPROVAL_TIMEOUT_MS: 300_000, OPENAI_MODELS: [], MODEL_PRICES: {} });
    expect(loadConfig({}).DAILY_USER_TOKEN_BUDGET).toBeUndefined();
    const config = loadConfig({
      APPROVAL_BY: "admin",
      OPENAI_MODELS: "gpt-4o-mini, gpt-4o",
      MODEL_PRICES: "gpt-4o-mini=0.15/0.60, gpt-4o = 2.5 / 10",
      DAILY_USER_TOKEN_BUDGET: "50000",
    });
    expect(config).toMatchObject({ APPROVAL_BY: "admin", OPENAI_MODELS: ["gpt-4o-mini", "gpt-4o"], DAILY_USER_TOKEN_BUDGET: 50_000 });
    expect(config.MODEL_PRICES).toEqual({ "gpt-4o-mini": { input: 0.15, output: 0.6 }, "gpt-4o": { input: 2.5, output: 10 } });
    expect(loadConfig({ DAILY_USER_TOKEN_BUDGET: "unlimited" }).DAILY_USER_TOKEN_BUDGET).toBeUndefined();

    const message = configError({ APPROVAL_BY: "anyone", MODEL_PRICES: "gpt-4o-mini=cheap" });
    expect(message).toContain('APPROVAL_BY must be asker or admin (got "anyone")');
    expect(message).toContain(
      'MODEL_PRICES must be a comma-separated list of MODEL=IN/OUT prices per million tokens, e.g. "gpt-4o-mini=0.15/0.60" (got "gpt-4o-mini=cheap")',
    );
  });

  it("never repeats a secret's value in an error", () => {
    const message = configError({ OPENAI_API_KEY: "sk-secret", SLACK_BOT_TOKEN: "xoxb-secret", PORT: "abc" });
    expect(message).toContain("PORT must be");
    expect(message).not.toMatch(/sk-secret|xoxb-secret/);
  });
});
