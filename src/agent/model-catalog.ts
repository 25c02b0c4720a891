import type { Model, ModelCallObserver, ModelProvider } from "./model.js";
import { parseModelRef, type ProviderName } from "./model-ref.js";
import { observedModel } from "./model-observer.js";

/** The configured providers' models by the names turns use ("gpt-4o-mini", "anthropic:claude-sonnet-4-5"). */
export class ModelCatalog {
  private readonly models = new Map<string, Model>();

  constructor(
    private readonly providers: ReadonlyMap<ProviderName, ModelProvider>,
    readonly defaultProvider: ProviderName,
    /** Told of every request to every model of the catalog (the bot's metrics). */
    private readonly observer?: ModelCallObserver,
  ) {}

  model(ref: string): Model {
    let model = this.models.get(ref);
    if (!model) {
      const { provider, name } = parseModelRef(ref, this.defaultProvider);
      const source = this.providers.get(provider);
      if (!source) throw new Error(`the model ${ref} needs the ${provider} provider, which is not configured`);
      // Observed even without metrics: a turn's record hears of its calls through their tags.
      model = observedModel(source.model(name), ref, provider, this.observer);
      this.models.set(ref, model);
    }
    return model;
  }

  /** The default provider (for `npm run doctor`). */
  get primary(): ModelProvider {
    return this.providers.get(this.defaultProvider)!;
  }
}
