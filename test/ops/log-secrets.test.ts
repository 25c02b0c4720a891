import { describe, expect, it } from "vitest";
import { captureLogs } from "../support/log-capture.js";

describe("src/log.ts: secrets in log lines", () => {
  it("censors keys and tokens at the top and one level down, in objects, errors and a child's bindings, leaving the caller's objects as they were", () => {
    const log = captureLogs("info");
    class ServiceError extends Error {}
    const failure = Object.assign(new ServiceError("the service refused"), {
      token: "xoxb-hush-1",
      headers: { authorization: "Bearer sk-hush-2", accept: "json" },
    });
    const request = { url: "https://api.example.com", apiKey: "sk-hush-3", retries: 2 };
    const store = { connectionString: "postgres://user:hush-4@db/bot" };
    log.logger.warn({ err: failure, request, store, token: "hush-5", headers: { authorization: "hush-6" } }, "call failed");
    log.logger.child({ client: { apiKey: "hush-7" }, turnId: "t1" }).info({ ms: 3 }, "child line");
    log.logger.info({ config: { OPENAI_API_KEY: "hush-8", OPENAI_MODEL: "gpt-4o-mini" } }, "settings");

    expect(log.text()).not.toContain("hush");
    const [failed, child, settings] = log.lines;
    expect(failed).toMatchObject({
      err: { type: "ServiceError", message: "the service refused", token: "[redacted]", headers: { authorization: "[redacted]", accept: "json" } },
      request: { url: "https://api.example.com", apiKey: "[redacted]", retries: 2 },
      store: { connectionString: "[redacted]" },
      token: "[redacted]",
      headers: { authorization: "[redacted]" },
    });
    expect(failed?.err.stack).toContain("the service refused");
    expect(child).toMatchObject({ client: { apiKey: "[redacted]" }, turnId: "t1", ms: 3 });
    expect(settings).toMatchObject({ config: { OPENAI_API_KEY: "[redacted]", OPENAI_MODEL: "gpt-4o-mini" } });
    // What was logged is not changed for the code that still holds it.
    expect(failure.token).toBe("xoxb-hush-1");
    expect(failure.headers.authorization).toBe("Bearer sk-hush-2");
    expect(request.apiKey).toBe("sk-hush-3");
    expect(store.connectionString).toContain("hush-4");
  });
});
