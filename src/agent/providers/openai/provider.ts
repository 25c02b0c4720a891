import type { Model, ModelProvider } from "../../model.js";
import { OpenAIChatModel } from "./chat-model.js";
import { createOpenAIClient, type ModelConnection } from "./client.js";

/** MODEL_PROVIDER=openai (the default): OpenAI, or any server compatible with its Chat Completions API. */
export function openAIProvider(connection: ModelConnection): ModelProvider {
  const client = createOpenAIClient(connection);
  const models = new Map<string, Model>();
  return {
    name: "openai",
    model(name) {
      let model = models.get(name);
      if (!model) models.set(name, (model = new OpenAIChatModel(client, name)));
      return model;
    },
    async listModels() {
      const names: string[] = [];
      for await (const model of client.models.list()) names.push(model.id);
      return names;
    },
  };
}
