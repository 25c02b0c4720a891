import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/tools/define-tool.js";
import { resolveSettings, settingsChannelOf } from "../../src/runner/channel-policy.js";
import { commandHelp } from "../../src/runner/commands/help.js";
import { parseCommandText } from "../../src/runner/commands/command-text.js";
import { reply } from "../fakes/fake-openai.js";
import { dbOf, RecordingSink, request, startTestApp, type TestApp } from "../support/test-app.js";

const defaults = { memoryWindow: 5, memoryWindowMax: 8, models: ["small", "large"] };
const admin = { userId: "boss", role: "admin" as const };

describe("per-channel policy", () => {
  it("takes the channel's setting over the server's over the default, and says where each comes from", () => {
    expect(resolveSettings(defaults, {}, {})).toEqual({
      memoryWindow: { value: 5, source: "default" },
      model: { value: "small", source: "default" },
      instructions: { server: undefined, channel: undefined },
      memorySummary: { value: true, source: "default" },
    });
    expect(resolveSettings(defaults, { memoryWindow: 3, systemPrompt: "Be brief." }, { memoryWindow: 20, model: "large", prompt: "In French." })).toEqual({
      memoryWindow: { value: 8, source: "channel" },
      model: { value: "large", source: "channel" },
      instructions: { server: "Be brief.", channel: "In French." },
      memorySummary: { value: true, source: "default" },
    });
    expect(resolveSettings(defaults, { memoryWindow: 3 }, {}).memoryWindow).toEqual({ value: 3, source: "server" });
    // A model no longer in OPENAI_MODELS falls back to the default, and says so.
    expect(resolveSettings(defaults, {}, { model: "retired" }).model).toEqual({ value: "small", source: "default", unavailable: "retired" });
  });

  it("applies a thread's channel's settings to the thread (Discord threads are channels with a parent; Slack threads live in theirs)", () => {
    expect(settingsChannelOf({ platform: "discord", workspaceId: "g", channelId: "thread-1", parentChannelId: "c1" }).channelId).toBe("c1");
    expect(settingsChannelOf({ platform: "slack", workspaceId: "T", channelId: "C1" }).channelId).toBe("C1");
  });

  it("reads the channel commands from their text form, and lists them in the help", () => {
    expect(parseCommandText("settings channel")).toEqual({ kind: "channel_show" });
    expect(parseCommandText("/settings channel tools calculator OFF")).toEqual({ kind: "channel_tool", tool: "calculator", state: "off" });
    expect(parseCommandText("settings channel tools calculator maybe")).toBeUndefined();
    expect(parseCommandText("settings channel memory default")).toEqual({ kind: "channel_memory", window: null });
    expect(parseCommandText("settings channel model large")).toEqual({ kind: "channel_model", model: "large" });
    expect(parseCommandText("settings channel prompt clear")).toEqual({ kind: "channel_prompt", text: null });
    expect(parseCommandText("settings channel reset")).toEqual({ kind: "channel_reset" });
    expect(parseCommandText("/usage")).toEqual({ kind: "usage_show" });
    expect(parseCommandText("/usage now")).toBeUndefined();
    expect(parseCommandText("tools require-approval wikipedia")).toEqual({ kind: "tools_approval", tool: "wikipedia", required: true });
    // The older forms still read as before.
    expect(parseCommandText("settings channel-add <#C9|x>")).toEqual({ kind: "settings_channels", action: "add", channel: "C9" });

    const help = commandHelp({ commandName: (group) => `/${group}`, roles: false });
    expect(help).toContain("`/settings channel tools NAME on|off|default`");
    expect(help).toContain("`/tools require-approval NAME`");
    expect(help).toMatch(/`\/usage` .* _\(admins\)_/);
  });

  describe("through the commands", () => {
    let t: TestApp;
    afterEach(() => t.close());

    it("keeps a channel's overrides to that channel, and only admins change them", async () => {
      t = await startTestApp({ MEMORY_WINDOW_MAX: "3" });
      t.model.otherwise(reply.text("ok"));
      const run = (text: string, where = request("")) => t.app.commands.execute(parseCommandText(text)!, where, admin);

      expect(await t.app.commands.execute(parseCommandText("settings channel memory 2")!, request(""), { userId: "u1", role: "member" })).toMatchObject({
        ok: false,
        denied: "admin",
      });
      expect(await run("settings channel memory 9")).toMatchObject({ ok: false, text: "The memory window must be a whole number from 1 to 3." });
      expect(await run("settings channel tools nope off")).toMatchObject({ ok: false, text: expect.stringMatching(/^There is no tool named `nope`/) });
      await run("settings channel tools calculator off", request("", { channelId: "c2" }));
      await run("settings channel prompt Only in c2.", request("", { channelId: "c2" }));

      await t.app.runner.submit(request("in c1"), new RecordingSink());
      await t.app.runner.submit(request("in a thread of c2", { channelId: "t7", parentChannelId: "c2" }), new RecordingSink());
      expect(t.model.toolsOffered(0)).toContain("calculator");
      expect(t.model.toolsOffered(1)).not.toContain("calculator");
      expect(t.model.chatRequests[0]!.body.messages[0].content).not.toContain("Only in c2.");
      expect(t.model.chatRequests[1]!.body.messages[0].content).toMatch(/Only in c2\.$/);

      expect((await run("settings channel show", request("", { channelId: "c2" }))).text).toBe(
        "**<#c2>'s own settings** (its threads follow them)\nTools: `calculator` off\nExtra instructions: “Only in c2.”",
      );
      const changes = dbOf(t.app).prepare("SELECT key, changed_by AS who FROM settings_changes ORDER BY id").all();
      expect(changes).toEqual([
        { key: "channel:c2:tool:calculator", who: "boss" },
        { key: "channel:c2:prompt", who: "boss" },
      ]);
    });

    it("works a channel's tools out once while nothing changes, and again after any change that decides them", async () => {
      t = await startTestApp();
      const { access } = t.app;
      const channel = { platform: "test", workspaceId: "w1", channelId: "c1" };
      const first = await access.forTurn(channel);

      expect(await access.forTurn(channel)).toBe(first);
      expect(first.tools.map((tool) => tool.name)).toContain("calculator");

      await access.setInChannel(channel, "calculator", false, "boss");
      const channelOff = await access.forTurn(channel);
      expect(channelOff.tools.map((tool) => tool.name)).not.toContain("calculator");
      expect(await access.forTurn(channel)).toBe(channelOff);

      await access.setApprovalRequired(channel, "circumference", true, "boss");
      expect((await access.forTurn(channel)).needApproval).toEqual(new Set(["circumference"]));

      await access.setEnabled(channel, "hypotenuse", false, "boss");
      await access.setEnabled(channel, "late_tool", true, "boss");
      expect((await access.forTurn(channel)).tools.map((tool) => tool.name)).not.toContain("hypotenuse");

      // Then only the registry changes: a tool switched on above arrives (as an MCP server's do).
      t.app.registry.add(defineTool({ name: "late_tool", description: "added after start", parameters: z.object({}), run: () => "ok" }));
      expect((await access.forTurn(channel)).tools.map((tool) => tool.name)).toContain("late_tool");
    });
  });
});
