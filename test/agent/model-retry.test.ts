import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { retryDelayMs as delayOf, type RetryPolicy } from "../../src/agent/model-retry.js";
import { classifyAnthropicError } from "../../src/agent/providers/anthropic/errors.js";
import { classifyOpenAIError } from "../../src/agent/providers/openai/errors.js";

/** The wait for what the openai client threw, as ModelCaller reads it. */
const retryDelayMs = (error: unknown, attempt: number, policy: RetryPolicy, random?: () => number) =>
  delayOf(classifyOpenAIError(error), attempt, policy, random);

const policy = { maxRetries: 5, maxDelayMs: 10_000 };
const apiError = (status: number, headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(status, { error: { message: "x" } }, "x", new Headers(headers));
const noJitter = () => 0;
const fullJitter = () => 1;

describe("the wait before retrying a model call", () => {
  it("backs off exponentially, up to the cap, with up to a quarter of jitter", () => {
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelayMs(apiError(503), attempt, policy, noJitter))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000]);
    expect(retryDelayMs(apiError(429), 0, policy, fullJitter)).toBe(375);
    expect(retryDelayMs(new OpenAI.APIConnectionError({ message: "refused" }), 1, policy, noJitter)).toBe(1_000);
  });

  it("honours the server's Retry-After and retry-after-ms, but never past the cap", () => {
    expect(retryDelayMs(apiError(429, { "retry-after": "2" }), 0, policy)).toBe(2_000);
    expect(retryDelayMs(apiError(429, { "retry-after-ms": "150", "retry-after": "9" }), 0, policy)).toBe(150);
    expect(retryDelayMs(apiError(429, { "retry-after": "3600" }), 0, policy)).toBe(10_000);
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    expect(retryDelayMs(apiError(503, { "retry-after": inAnHour }), 0, policy)).toBe(10_000);
  });

  it("does not retry what another attempt cannot fix", () => {
    expect(retryDelayMs(apiError(400), 0, policy)).toBeUndefined();
    expect(retryDelayMs(apiError(401), 0, policy)).toBeUndefined();
    expect(retryDelayMs(apiError(503, { "x-should-retry": "false" }), 0, policy)).toBeUndefined();
    expect(retryDelayMs(new Error("a bug"), 0, policy)).toBeUndefined();
  });
});

describe("src/agent/providers/anthropic/errors.ts: what the Anthropic client threw", () => {
  const anthropicError = (status: number, headers: Record<string, string> = {}) =>
    Anthropic.APIError.generate(status, { type: "error", error: { type: "x", message: "x" } }, "x", new Headers(headers));

  it("retries overload (529), rate limits and server errors after their retry-after, and names the failure", () => {
    expect(classifyAnthropicError(anthropicError(529, { "retry-after": "3" }))).toEqual({ failure: "overloaded", retryable: true, retryAfterMs: 3_000 });
    expect(classifyAnthropicError(anthropicError(429, { "retry-after-ms": "250" }))).toEqual({ failure: "rate_limited", retryable: true, retryAfterMs: 250 });
    expect(classifyAnthropicError(anthropicError(500))).toEqual({ failure: "server_error", retryable: true });
    expect(classifyAnthropicError(new Anthropic.APIConnectionError({ message: "refused" }))).toEqual({ failure: "unreachable", retryable: true });
  });

  it("does not retry what another attempt cannot fix, nor what the server says not to", () => {
    expect(classifyAnthropicError(anthropicError(401))).toEqual({ failure: "auth", retryable: false });
    expect(classifyAnthropicError(anthropicError(400))).toEqual({ failure: "bad_request", retryable: false });
    expect(classifyAnthropicError(anthropicError(529, { "x-should-retry": "false" }))).toEqual({ failure: "overloaded", retryable: false });
    expect(classifyAnthropicError(new Error("a bug"))).toEqual({ failure: "bad_request", retryable: false });
  });
});
