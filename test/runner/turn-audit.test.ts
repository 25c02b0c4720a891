import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { captureLogs } from "../support/log-capture.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const stepsOf = (t: TestApp, turnId: string) =>
  t.store.db.prepare("SELECT seq, tool, input, output, error, duration_ms AS durationMs FROM turn_steps WHERE turn_id = ? ORDER BY seq").all(turnId) as {
    seq: number;
    tool: string;
    input: string;
    output: string | null;
    error: string | null;
    durationMs: number;
  }[];

const turnRow = (t: TestApp, turnId: string) =>
  t.store.db.prepare("SELECT status, outcome, iterations, total_tokens AS totalTokens FROM turns WHERE id = ?").get(turnId);

describe("the audit trail of a turn", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("records the turn and each tool step with its input and output", async () => {
    t = await startTestApp();
    t.model.script(
      reply.toolCalls({ name: "circumference", args: { radius: 7.81 } }),
      reply.toolCalls({ name: "hypotenuse", args: { adjacent_side: 3 } }),
      reply.text("About 49.07; the triangle needs two values."),
    );
    const result = await t.app.runner.submit(request("circumference of r = 7.81, and a hypotenuse?"), new RecordingSink());

    expect(turnRow(t, result.turnId)).toEqual({ status: "answered", outcome: "answer", iterations: 2, totalTokens: 45 });
    const steps = stepsOf(t, result.turnId);
    expect(steps.map(({ durationMs, ...step }) => step)).toEqual([
      { seq: 1, tool: "circumference", input: '{"radius":7.81}', output: "49.0716772491", error: null },
      {
        seq: 2,
        tool: "hypotenuse",
        input: '{"adjacent_side":3}',
        output: null,
        error: expect.stringMatching(/^hypotenuse failed: need two of adjacent_side, opposite_side and angle/),
      },
    ]);
    expect(steps.every((step) => step.durationMs >= 0)).toBe(true);
  });

  it("keeps the tool steps of a turn that failed, without touching the memory", async () => {
    t = await startTestApp({ OPENAI_MAX_RETRIES: "0" });
    t.model.script(reply.toolCalls({ name: "circumference", args: { radius: 2 } }), reply.status(500, "boom"));
    const result = await t.app.runner.submit(request("radius 2?"), new RecordingSink());

    expect(result.status).toBe("failed");
    expect(turnRow(t, result.turnId)).toMatchObject({ status: "failed", outcome: "llm_server_error" });
    expect(stepsOf(t, result.turnId)).toMatchObject([{ seq: 1, tool: "circumference", output: "12.5663706144", error: null }]);
    expect(await t.app.store.conversations.window(request(""), 5, 10_000)).toEqual([]);
  });

  it("says a model failure's words once, in the log line and in the turn's row", async () => {
    const logs = captureLogs("info");
    t = await startTestApp({ OPENAI_MAX_RETRIES: "0" }, {}, logs.logger);
    t.model.script(reply.status(500, "The fake model failed on purpose"));
    const result = await t.app.runner.submit(request("hello?"), new RecordingSink());

    const once = (text: string) => text.split("The fake model failed on purpose").length - 1;
    const logged = logs.lines.find((line) => line.msg === "turn failed");
    expect(logged?.err.message).toContain("The fake model failed on purpose");
    expect(once(logged?.err.message)).toBe(1);
    const stored = t.store.db.prepare("SELECT error FROM turns WHERE id = ?").pluck().get(result.turnId) as string;
    expect(stored).toContain("model call failed (server_error)");
    expect(once(stored)).toBe(1);
  });

  it("marks a turn left running by a stopped process as interrupted on the next start", async () => {
    t = await startTestApp();
    // a process of this host that is gone (a crash): its run is still registered, its turn still running
    const ghost = { id: "main:gone", name: "main", host: hostname(), pid: spawnSync(process.execPath, ["-e", ""]).pid! };
    await t.store.instances.register(ghost);
    await t.store.turns.start({ id: "turn-cut-off", conversation: request(""), userId: "u1", instance: ghost.id });
    await t.restart();

    expect(t.store.db.prepare("SELECT status, error FROM turns WHERE id = 'turn-cut-off'").get()).toEqual({
      status: "interrupted",
      error: "the bot stopped before this turn finished",
    });
    expect(t.store.db.prepare("SELECT COUNT(*) FROM instances WHERE id = 'main:gone'").pluck().get()).toBe(0);
  });
});
