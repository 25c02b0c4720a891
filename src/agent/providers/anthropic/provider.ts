import type { Model, ModelProvider } from "../../model.js";
import { type AnthropicConnection, createAnthropicClient } from "./client.js";
import { AnthropicMessagesModel } from "./messages-model.js";

/** MODEL_PROVIDER=anthropic, or models named "anthropic:…": Anthropic's Messages API. */
export function anthropicProvider(connection: AnthropicConnection): ModelProvider {
  const client = createAnthropicClient(connection);
  const models = new Map<string, Model>();
  return {
    name: "anthropic",
    model(name) {
      let model = models.get(name);
      if (!model) models.set(name, (model = new AnthropicMessagesModel(client, name, connection.maxTokens)));
      return model;
    },
    async listModels() {
      const names: string[] = [];
      for await (const model of client.models.list()) names.push(model.id);
      return names;
    },
  };
}
