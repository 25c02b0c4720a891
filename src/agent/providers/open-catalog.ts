import { ModelCatalog } from "../model-catalog.js";
import type { ModelCallObserver, ModelProvider } from "../model.js";
import { parseModelRef, type ProviderName } from "../model-ref.js";
import type { AnthropicConnection } from "./anthropic/client.js";
import type { ModelConnection } from "./openai/client.js";

/** How to reach each provider; only those a configured model names are loaded. */
export interface ProviderConnections {
  openai: ModelConnection;
  anthropic: AnthropicConnection;
}

/**
 * The catalog for the models turns may use (`refs`: the default first, then the channels'
 * choices). A provider's SDK is imported only when one of them names it, as a platform's is
 * only when that platform starts.
 */
export async function openModelCatalog(
  refs: readonly string[],
  defaultProvider: ProviderName,
  connections: ProviderConnections,
  observer?: ModelCallObserver,
): Promise<ModelCatalog> {
  const needed = new Set<ProviderName>([defaultProvider, ...refs.map((ref) => parseModelRef(ref, defaultProvider).provider)]);
  const providers = new Map<ProviderName, ModelProvider>();
  for (const name of needed) providers.set(name, await loadProvider(name, connections));
  return new ModelCatalog(providers, defaultProvider, observer);
}

async function loadProvider(name: ProviderName, connections: ProviderConnections): Promise<ModelProvider> {
  switch (name) {
    case "openai":
      return (await import("./openai/provider.js")).openAIProvider(connections.openai);
    case "anthropic":
      return (await import("./anthropic/provider.js")).anthropicProvider(connections.anthropic);
  }
}
