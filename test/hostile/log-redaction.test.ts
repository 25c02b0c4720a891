import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { captureLogs } from "../support/log-capture.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

/** A tool whose failure carries credentials, as an HTTP client's error often does. */
const leaky = defineTool({
  name: "leaky",
  description: "fails with credentials attached",
  parameters: z.object({}),
  run: () => {
    throw Object.assign(new Error("the service refused"), {
      token: "xoxb-secret-token",
      headers: { authorization: "Bearer sk-secret-key" },
    });
  },
});

describe("the logs the tests read", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("come from the production logger, so 'no secret in the logs' holds for what operators read", async () => {
    const log = captureLogs("info");
    t = await startTestApp({ DEFAULT_TOOLS: "leaky" }, { extraTools: [leaky] }, log.logger);
    t.model.script(reply.toolCalls({ name: "leaky", args: {} }), reply.text("sorry"));
    await t.app.runner.submit(request("go"), new RecordingSink());

    const failure = log.lines.find((line) => line.msg === "tool failed");
    expect(failure?.err).toMatchObject({ message: "the service refused", token: "[redacted]" });
    expect(log.text()).not.toContain("xoxb-secret-token");
    expect(log.text()).not.toContain("sk-secret-key");
  });
});
