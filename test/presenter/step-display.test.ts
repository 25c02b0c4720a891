import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { reply } from "../fakes/fake-openai.js";
import { silentLogger } from "../../src/log.js";
import { TurnPresenter } from "../../src/presenter/turn-presenter.js";
import { RecordingSurface } from "../support/recording-surface.js";
import { request, startTestApp, type TestApp } from "../support/test-app.js";

const slowTool = defineTool({
  name: "slow_lookup",
  description: "takes a while",
  parameters: z.object({ key: z.string() }),
  run: async ({ key }) => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return `value of ${key}`;
  },
});

function presenterOn(surface: RecordingSurface, stepStartDelayMs = 100): TurnPresenter {
  return new TurnPresenter({
    surface,
    question: { location: { channelId: "c1" }, messageId: "q1", isDm: false, askerId: "u1", text: "go" },
    stepStartDelayMs,
    maxAnswerMessages: 5,
    logger: silentLogger(),
    onThreadOpened: () => {},
  });
}

describe("showing tool steps", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("sends a quick step once, ended and with its arguments, and a slow one as started then ended", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "circumference,slow_lookup" }, { extraTools: [slowTool] });
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 1 } }),
      reply.toolCalls({ name: "slow_lookup", args: { key: "k" } }),
      reply.text("done"),
    );
    const surface = new RecordingSurface();
    await t.app.runner.submit(request("go"), presenterOn(surface));

    // The working indicator shows once the turn outlasted the step delay: after the quick step
    // on a quiet machine, before it when the machine is slow to reach it; always before the slow step.
    const working = surface.transcript.indexOf("working");
    expect(working).toBeGreaterThan(-1);
    expect(working).toBeLessThan(surface.transcript.findIndex((entry) => entry.includes("slow_lookup")));
    expect(surface.transcript.filter((entry) => entry !== "working")).toEqual([
      "thread q1",
      expect.stringMatching(/^post step ✅ `circumference` `\{"radius":1\}` → `6\.28318530718` _\(\d+ ms\)_$/),
      'post step 🔧 `slow_lookup` `{"key":"k"}` …',
      expect.stringMatching(/^edit step m2 ✅ `slow_lookup` `\{"key":"k"\}` → `value of k`/),
      "post answer done",
      "done working",
    ]);
    // the steps went into the thread opened on the question, the answer next to the question
    const posts = surface.calls.filter((call) => call.op === "post");
    expect(posts[0]!.to).toEqual({ location: { channelId: "thread-of-q1", parentChannelId: "c1" } });
    expect(posts.at(-1)!.to).toEqual({ location: { channelId: "c1" }, replyTo: "q1" });
    // the audit keeps both ends of every step whatever the platform was shown
    const audit = t.store.db.prepare("SELECT tool, input, output FROM turn_steps ORDER BY seq").all();
    expect(audit).toEqual([
      { tool: "circumference", input: '{"radius":1}', output: "6.28318530718" },
      { tool: "slow_lookup", input: '{"key":"k"}', output: "value of k" },
    ]);
  });

  it("makes no working-indicator call for an answer that comes within the step delay", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("done"));
    const surface = new RecordingSurface();
    await t.app.runner.submit(request("go"), presenterOn(surface, 300));
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(surface.transcript.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual(["thread q1", "post step ✅", "post answer done"]);
  });

  it("shows every start at once on a surface that holds no step back (the terminal)", async () => {
    t = await startTestApp();
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("done"));
    const surface = new RecordingSurface({ holdsQuickSteps: false, threads: false });
    await t.app.runner.submit(request("go"), presenterOn(surface));
    expect(surface.transcript.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "working",
      "post step 🔧",
      "edit step m1",
      "post answer done",
      "done working",
    ]);
  });
});
