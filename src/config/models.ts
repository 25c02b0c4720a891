import { modelRefText, parseModelRef, type ProviderName } from "../agent/model-ref.js";
import type { ProviderConnections } from "../agent/providers/open-catalog.js";
import type { Config } from "./env.js";

/**
 * The models turns may use, default first, each written as choices, channel settings and usage
 * records name it: bare for the default provider's, "provider:name" for another's. Without
 * OPENAI_MODELS, the default provider's own default model alone.
 */
export function modelChoices(config: Pick<Config, "MODEL_PROVIDER" | "OPENAI_MODEL" | "OPENAI_MODELS" | "ANTHROPIC_MODEL">): string[] {
  const provider = config.MODEL_PROVIDER;
  const listed = config.OPENAI_MODELS.length > 0 ? config.OPENAI_MODELS : [provider === "anthropic" ? config.ANTHROPIC_MODEL : config.OPENAI_MODEL];
  return [...new Set(listed.map((name) => modelRefText(parseModelRef(name, provider), provider)))];
}

/** How to reach each provider, from its variables; a provider no model names is never loaded. */
export function providerConnections(config: Config, timeoutMs = config.OPENAI_TIMEOUT_MS): ProviderConnections {
  return {
    openai: { apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL, timeoutMs },
    anthropic: { apiKey: config.ANTHROPIC_API_KEY, baseURL: config.ANTHROPIC_BASE_URL, timeoutMs, maxTokens: config.ANTHROPIC_MAX_TOKENS },
  };
}

/** The providers the configured models name, the default's first. */
export function providersInUse(config: Pick<Config, "MODEL_PROVIDER" | "OPENAI_MODEL" | "OPENAI_MODELS" | "ANTHROPIC_MODEL">): ProviderName[] {
  const names = modelChoices(config).map((name) => parseModelRef(name, config.MODEL_PROVIDER).provider);
  return [...new Set([config.MODEL_PROVIDER, ...names])];
}
