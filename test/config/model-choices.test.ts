import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";
import { modelChoices, providersInUse } from "../../src/config/models.js";

const choicesOf = (env: Record<string, string>) => modelChoices(loadConfig(env));

describe("src/config/models.ts: the models turns may use, by provider", () => {
  it("keeps the old forms: OPENAI_MODEL alone, or OPENAI_MODELS of bare names (an Ollama tag's colon included)", () => {
    expect(choicesOf({})).toEqual(["gpt-4o-mini"]);
    expect(choicesOf({ OPENAI_MODELS: "gpt-4o, llama3.1:8b" })).toEqual(["gpt-4o", "llama3.1:8b"]);
    expect(providersInUse(loadConfig({ OPENAI_MODELS: "gpt-4o, llama3.1:8b" }))).toEqual(["openai"]);
  });

  it("reads provider-qualified names, writing the default provider's bare as before", () => {
    const env = { OPENAI_MODELS: "openai:gpt-4o-mini,anthropic:claude-sonnet-4-5" };
    expect(choicesOf(env)).toEqual(["gpt-4o-mini", "anthropic:claude-sonnet-4-5"]);
    expect(providersInUse(loadConfig(env))).toEqual(["openai", "anthropic"]);
  });

  it("with MODEL_PROVIDER=anthropic, defaults to ANTHROPIC_MODEL, and bare names are Anthropic's", () => {
    expect(choicesOf({ MODEL_PROVIDER: "anthropic" })).toEqual(["claude-sonnet-4-5"]);
    expect(choicesOf({ MODEL_PROVIDER: "anthropic", ANTHROPIC_MODEL: "claude-haiku-4-5" })).toEqual(["claude-haiku-4-5"]);
    expect(choicesOf({ MODEL_PROVIDER: "anthropic", OPENAI_MODELS: "claude-haiku-4-5,openai:gpt-4o" })).toEqual(["claude-haiku-4-5", "openai:gpt-4o"]);
  });

  it("refuses an unknown provider and a provider without a model name", () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
      }
      return "";
    };
    expect(message({ MODEL_PROVIDER: "gemini" })).toContain('MODEL_PROVIDER must be openai or anthropic (got "gemini")');
    expect(message({ OPENAI_MODELS: "gpt-4o,anthropic:" })).toContain("OPENAI_MODELS must be model names, optionally after their provider");
  });
});
