import type { Model, ModelProvider } from "../../model.js";
import { OpenAIChatModel } from "./chat-model.js";
import { createOpenAIClient, type ModelConnection } from "./client.js";
import { CompletionsEndpoint } from "./completions-endpoint.js";

/** MODEL_PROVIDER=openai (the default): OpenAI, or any server compatible with its Chat Completions API. */
export function openAIProvider(connection: ModelConnection): ModelProvider {
  const client = createOpenAIClient(connection);
  // Chat completions go straight to the endpoint (see CompletionsEndpoint); the client lists the models.
  const endpoint = new CompletionsEndpoint(client, connection.timeoutMs);
  const models = new Map<string, Model>();
  return {
    name: "openai",
    model(name) {
      let model = models.get(name);
      if (!model) models.set(name, (model = new OpenAIChatModel(endpoint, name)));
      return model;
    },
    async listModels() {
      const names: string[] = [];
      for await (const model of client.models.list()) names.push(model.id);
      return names;
    },
  };
}
