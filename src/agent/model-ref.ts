/** The providers the bot can talk to (src/agent/providers/<name>/). */
export const MODEL_PROVIDERS = ["openai", "anthropic"] as const;
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

/**
 * How a model is written in choices, settings and usage records: bare for the default provider's
 * (as every model was before there were two providers, so stored choices and MODEL_PRICES keys
 * still match), qualified for the others'.
 */
export function modelRefText(ref: ModelRef, defaultProvider: ProviderName): string {
  return ref.provider === defaultProvider && !isProvider(ref.name.split(":")[0]!) ? ref.name : `${ref.provider}:${ref.name}`;
}
