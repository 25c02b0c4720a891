import { loadConfig } from "../../../src/config/env.js";
import type { Tool } from "../../../src/tools/define-tool.js";
import { knowledgeTools } from "../../../src/tools/knowledge/index.js";
import type { FakeHttpServer } from "../../fakes/fake-http-server.js";

/** The three knowledge tools built from configuration that points every service at the fake. */
export function knowledgeToolsFor(fake: FakeHttpServer, env: Record<string, string> = {}): Record<string, Tool> {
  const config = loadConfig({
    OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    WIKIPEDIA_API_URL: fake.url("/w/api.php"),
    ARXIV_API_URL: fake.url("/api/query"),
    DUCKDUCKGO_URL: fake.url("/html/"),
    KNOWLEDGE_USER_AGENT: "agent-bot-tests/1.0 (ops@example.org)",
    ...env,
  });
  return Object.fromEntries(knowledgeTools(config).map((tool) => [tool.name, tool]));
}
