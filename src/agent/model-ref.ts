/** The providers the bot can talk to (src/agent/providers/<name>/). */
const MODEL_PROVIDERS = ["openai", "anthropic"] as const;
export type ProviderName = (typeof MODEL_PROVIDERS)[number];

export interface ModelRef {
  provider: ProviderName;
  /** The model's name as its provider spells it. */
  name: string;
}

const isProvider = (text: string): text is ProviderName => (MODEL_PROVIDERS as readonly string[]).includes(text);

/**
 * "anthropic:claude-sonnet-4-5" names a model of a provider; a name without a known provider
 * before its first colon is the default provider's, so "llama3.1:8b" (an Ollama tag) stays a name.
 */
export function parseModelRef(text: string, defaultProvider: ProviderName): ModelRef {
  const colon = text.indexOf(":");
  const prefix = colon > 0 ? text.slice(0, colon) : "";
  return isProvider(prefix) ? { provider: prefix, name: text.slice(colon + 1) } : { provider: defaultProvider, name: text };
}
