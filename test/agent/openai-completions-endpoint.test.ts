import OpenAI from "openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createOpenAIClient } from "../../src/agent/providers/openai/client.js";
import { CompletionsEndpoint } from "../../src/agent/providers/openai/completions-endpoint.js";
import { classifyOpenAIError } from "../../src/agent/providers/openai/errors.js";
import { FakeOpenAI, reply } from "../fakes/fake-openai.js";

const BODY = Buffer.from(JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: false }));

describe("src/agent/providers/openai/completions-endpoint: chat completions without the client's request path", () => {
  let model: FakeOpenAI;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await model.close();
  });

  it("sends the key, and the organization and project the client read from its environment, to the address the client resolved", async () => {
    model = await FakeOpenAI.start();
    vi.stubEnv("OPENAI_ORG_ID", "org-test");
    vi.stubEnv("OPENAI_PROJECT_ID", "proj-test");
    model.script(reply.text("hello"));
    const endpoint = new CompletionsEndpoint(createOpenAIClient({ apiKey: "sk-test", baseURL: `${model.url}/`, timeoutMs: 5_000 }), 5_000);
    const response = await endpoint.post(BODY, new AbortController());

    expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("hello");
    const [sent] = model.chatRequests;
    expect(sent!.path).toBe("/v1/chat/completions");
    expect(sent!.headers).toMatchObject({
      authorization: "Bearer sk-test",
      "openai-organization": "org-test",
      "openai-project": "proj-test",
      "content-type": "application/json",
    });
    expect(sent!.body).toEqual(JSON.parse(BODY.toString()));
  });

  it("rejects with the client's own errors: a status error with its headers, and a cancel", async () => {
    model = await FakeOpenAI.start();
    model.script(reply.status(429, "slow down", { "retry-after": "2" }), reply.hang());
    const endpoint = new CompletionsEndpoint(createOpenAIClient({ baseURL: model.url, timeoutMs: 5_000 }), 5_000);

    const limited = await endpoint.post(BODY, new AbortController()).catch((error: unknown) => error);
    expect(limited).toMatchObject({ status: 429, message: expect.stringContaining("slow down") });
    expect(classifyOpenAIError(limited)).toEqual({ failure: "rate_limited", retryable: true, retryAfterMs: 2_000 });

    const call = new AbortController();
    const cancelled = endpoint.post(BODY, call).catch((error: unknown) => error);
    setTimeout(() => call.abort(), 50);
    expect(await cancelled).toBeInstanceOf(OpenAI.APIUserAbortError);
  });
});
