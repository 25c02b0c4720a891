import { afterEach, describe, expect, it } from "vitest";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { reply } from "../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const admin = { userId: "boss", role: "admin" as const };
const member = { userId: "member", role: "member" as const };

describe("settings commands", () => {
  let t: TestApp;
  afterEach(() => t.close());

  it("refuse a non-admin's tool change and change nothing", async () => {
    t = await startTestApp();
    const result = await t.app.commands.execute({ kind: "tools_set", tool: "calculator", enabled: false }, request(""), member);
    expect(result).toMatchObject({ ok: false, denied: "admin" });
    expect(t.app.access.states(request("")).find((s) => s.name === "calculator")).toMatchObject({ enabled: true, source: "default" });
  });

  it("apply an admin's tool change to the next turn and record who made it", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("ok"));
    const result = await t.app.commands.execute(parseCommandText("/tools disable calculator")!, request(""), admin);
    expect(result).toEqual({ ok: true, text: "`calculator` is now disabled here." });
    await t.app.runner.submit(request("2+2?"), new RecordingSink());

    expect(t.model.toolsOffered(0)).not.toContain("calculator");
    expect(t.model.toolsOffered(0)).toContain("circumference");
    expect(t.app.access.states(request("")).find((s) => s.name === "calculator")).toMatchObject({
      enabled: false,
      source: "admin",
      changedBy: "boss",
    });
    // another workspace keeps its defaults
    await t.app.runner.submit(request("2+2?", { workspaceId: "other" }), new RecordingSink());
    expect(t.model.toolsOffered(1)).toContain("calculator");
  });

  it("list tools with their state, and name the known tools for a typo", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "calculator" });
    const list = (await t.app.commands.execute({ kind: "tools_list" }, request(""), member)).text;
    expect(list).toContain("✅ `calculator`");
    expect(list).toContain("⛔ `circumference`");
    const typo = await t.app.commands.execute({ kind: "tools_set", tool: "calculater", enabled: true }, request(""), admin);
    expect(typo.text).toMatch(/^There is no tool named `calculater`\. Known tools: calculator, circumference/);
  });

  it("let moderators clear memory but not plain members, and show what is remembered", async () => {
    t = await startTestApp();
    t.model.otherwise(reply.text("an answer"));
    await t.app.runner.submit(request("a question"), new RecordingSink());

    expect((await t.app.commands.execute({ kind: "memory_show" }, request(""), member)).text).toBe(
      "I remember the last 1 exchange(s) here:\n**alice:** a question\n**bot:** an answer",
    );
    expect(await t.app.commands.execute({ kind: "memory_clear" }, request(""), member)).toMatchObject({ ok: false, denied: "moderator" });
    expect((await t.app.commands.execute({ kind: "memory_clear" }, request(""), { ...member, role: "moderator" as const })).ok).toBe(true);
    expect((await t.app.commands.execute({ kind: "memory_show" }, request(""), member)).text).toMatch(/don't remember anything/);
  });

  it("parse the text form of commands", () => {
    expect(parseCommandText("/tools")).toEqual({ kind: "tools_list" });
    expect(parseCommandText("tools enable wikipedia")).toEqual({ kind: "tools_set", tool: "wikipedia", enabled: true });
    expect(parseCommandText("/memory clear")).toEqual({ kind: "memory_clear" });
    expect(parseCommandText("/tools enable")).toBeUndefined();
    expect(parseCommandText("/launch missiles")).toBeUndefined();
  });
});
