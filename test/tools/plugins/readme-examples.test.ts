import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { loadPlugins } from "../../../src/tools/plugins/plugin-loader.js";
import { reply } from "../../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../../support/test-app.js";

const EXAMPLES = fileURLToPath(new URL("../../../src/tools/plugins/examples/", import.meta.url));

describe("the plugin examples docs/tools.md shows (src/tools/plugins/examples/)", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "eur_to_usd,eur_to_currency" });
    const result = await loadPlugins(EXAMPLES, t.app.registry, silentLogger());
    expect(result.problems).toEqual([]);
  });
  afterEach(() => t.close());

  it("converts euros to dollars at the fixed rate", async () => {
    t.model.script(reply.toolCalls({ name: "eur_to_usd", args: { eur: 10.5 } }), (req) => ({
      kind: "message",
      content: `That is ${req.body.messages.at(-1).content}.`,
    }));
    const answer = await t.app.runner.submit(request("Can you convert 10.5 euro to dollars?"), new RecordingSink());

    expect(answer.text).toBe("That is 10.50 EUR = 11.24 USD (fixed rate 1.07).");
  });

  it("asks the model for the currency symbol through ctx.llm and returns its result as the answer", async () => {
    t.model.script(reply.toolCalls({ name: "eur_to_currency", args: { eur: 67, currency: "JPY" } }), reply.text("¥"));
    const sink = new RecordingSink();
    const answer = await t.app.runner.submit(request("Convert 67 EUR to JPY"), sink);

    expect(answer).toMatchObject({ status: "answered", outcome: "direct", text: "67€ = 10058.71¥" });
    const sideQuestion = t.model.chatRequests[1]!.body;
    expect(sideQuestion.tools).toBeUndefined();
    expect(sideQuestion.messages.at(-1).content).toContain("JPY ->");
    expect(t.model.chatRequests).toHaveLength(2);
  });

  it("are shown in docs/tools.md exactly as they are in the examples folder", () => {
    const readme = readFileSync(new URL("../../../docs/tools.md", import.meta.url), "utf8");
    for (const file of ["fixed-rate-currency.ts", "currency-with-symbol.ts"]) {
      const code = readFileSync(join(EXAMPLES, file), "utf8");
      expect(readme).toContain("```ts\n" + code + "```");
    }
  });
});
