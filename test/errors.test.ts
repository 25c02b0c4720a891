import { describe, expect, it, vi } from "vitest";
import { BudgetReached } from "../src/agent/call-budget.js";
import { llmError } from "../src/agent/llm-error.js";
import { OutputParseError } from "../src/agent/react-parser.js";
import { TurnCancelled } from "../src/agent/tool-invoker.js";
import { ConfigError } from "../src/config/env.js";
import { Forbidden, NotFound } from "../src/console/context.js";
import { SignInError } from "../src/console/sign-in/provider.js";
import { FileUnavailable } from "../src/contract/inbound.js";
import { RateLimitedError, StreamUnavailableError } from "../src/contract/surface.js";
import { BotError, hasCode } from "../src/errors.js";
import { BoundedFetchError } from "../src/net/bounded-fetch.js";
import { waitingOutRateLimits } from "../src/presenter/rate-limits.js";
import { describeFailure, RUNNER_TEXT } from "../src/runner/turn-replies.js";
import { SecretsError } from "../src/store/secrets.js";
import { CpuTaskError } from "../src/tools/cpu/cpu-pool.js";
import { KnowledgeError } from "../src/tools/knowledge/http.js";
import { McpConfigError } from "../src/tools/mcp/mcp-config.js";

/** The modules again, as a second copy of the package would load them: new classes, same codes. */
async function secondCopy() {
  vi.resetModules();
  const [surface, llm, invoker] = await Promise.all([
    import("../src/contract/surface.js"),
    import("../src/agent/llm-error.js"),
    import("../src/agent/tool-invoker.js"),
  ]);
  return { RateLimitedError: surface.RateLimitedError, llmError: llm.llmError, TurnCancelled: invoker.TurnCancelled };
}

const running = () => new AbortController().signal;

describe("src/errors.ts: one coded base for the bot's errors", () => {
  it("gives each of the bot's error classes its code, under the one base class", () => {
    const made: [BotError, string][] = [
      [new ConfigError("bad"), "config_invalid"],
      [new McpConfigError("bad"), "mcp_config_invalid"],
      [llmError("timeout", new Error("slow")), "model_failed"],
      [new BudgetReached("used up"), "budget_reached"],
      [new OutputParseError("unreadable", "text"), "model_output_unreadable"],
      [new TurnCancelled("stopped"), "turn_cancelled"],
      [new BoundedFetchError("timeout", "slow"), "fetch_failed"],
      [new RateLimitedError(100), "platform_rate_limited"],
      [new StreamUnavailableError("refused", "no"), "stream_unavailable"],
      [new FileUnavailable("gone"), "file_unavailable"],
      [new SecretsError("no key opens it"), "secret_unreadable"],
      [new KnowledgeError("down"), "knowledge_failed"],
      [new CpuTaskError("too big"), "cpu_task_failed"],
      [new NotFound("no such turn"), "not_found"],
      [new Forbidden("not yours"), "forbidden"],
      [new SignInError("bad answer"), "sign_in_failed"],
    ];
    for (const [error, code] of made) {
      expect(error).toBeInstanceOf(BotError);
      expect({ name: error.name, code: error.code }).toEqual({ name: error.constructor.name, code });
      expect(hasCode(error, code as BotError["code"])).toBe(true);
    }
  });

  it("matches the code, not the class: an error of a second copy of the modules counts, a look-alike without the code does not", async () => {
    const copy = await secondCopy();
    const foreign = new copy.RateLimitedError(5);
    expect(foreign).not.toBeInstanceOf(RateLimitedError);
    expect(hasCode(foreign, "platform_rate_limited")).toBe(true);
    expect(hasCode(foreign, "fetch_failed")).toBe(false);
    expect(hasCode(Object.assign(new Error("rate limited"), { retryAfterMs: 5 }), "platform_rate_limited")).toBe(false);
    expect(hasCode("platform_rate_limited", "platform_rate_limited")).toBe(false);
  });

  it("tells the user the model's failure, and a cancelled turn as cancelled, whichever copy made the error", async () => {
    const copy = await secondCopy();
    expect(describeFailure(copy.llmError("rate_limited", new Error("429")), running(), 60_000)).toEqual({
      outcome: "llm_rate_limited",
      text: "The language model is busy (rate limited). Please try again in a minute.",
    });
    expect(describeFailure(new copy.TurnCancelled("cancelled"), running(), 60_000)).toEqual({ outcome: "timeout", text: RUNNER_TEXT.timeout(60_000) });
    expect(describeFailure(new Error("boom"), running(), 60_000)).toEqual({ outcome: "error", text: RUNNER_TEXT.unexpected });
  });

  it("waits out a platform's rate limit by its code, and gives up on other errors at once", async () => {
    const copy = await secondCopy();
    let calls = 0;
    const written = await waitingOutRateLimits(async () => {
      calls++;
      if (calls === 1) throw new copy.RateLimitedError(1);
      return "posted";
    });
    expect({ written, calls }).toEqual({ written: "posted", calls: 2 });

    calls = 0;
    const failing = waitingOutRateLimits(async () => {
      calls++;
      throw Object.assign(new Error("rate limited"), { retryAfterMs: 1 });
    });
    await expect(failing).rejects.toThrow("rate limited");
    expect(calls).toBe(1);
  });
});
