import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { loadPlugins } from "../../../src/tools/plugins/plugin-loader.js";
import { captureLogs } from "../../support/log-capture.js";
import { reply } from "../../fakes/fake-openai.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../../support/test-app.js";

const pluginDir = (name: string) => fileURLToPath(new URL(`../../fixtures/plugins/${name}/`, import.meta.url));
const HERE = { platform: "test", workspaceId: "w1", channelId: "c1" };
const ADMIN = { userId: "admin", role: "admin" as const };

describe("user tool plugins from TOOLS_DIR", () => {
  let t: TestApp;
  afterEach(() => t.close());

  describe("with good plugins", () => {
    beforeEach(async () => {
      t = await startTestApp();
    });

    it("adds every tool a module exports, named or in a default array, as plugin tools", async () => {
      const result = await loadPlugins(pluginDir("good"), t.app.registry, silentLogger());

      expect(result.problems).toEqual([]);
      expect(result.loaded).toEqual(new Map([["dice.ts", ["roll_dice", "flip_coin"]]]));
      expect(t.app.registry.get("roll_dice")?.origin).toBe("plugin");
      expect(t.app.registry.get("flip_coin")?.origin).toBe("plugin");
    });

    it("keeps plugin tools off until an admin enables them, and shows their origin in the tool list", async () => {
      await loadPlugins(pluginDir("good"), t.app.registry, silentLogger());
      const list = (await t.app.commands.execute({ kind: "tools_list" }, HERE, ADMIN)).text;
      expect(list).toContain("⛔ `roll_dice` _(plugin)_: Rolls dice with a fixed seed so the result is predictable.");
      expect(list).toContain("✅ `calculator`:");

      t.model.script(reply.text("I cannot roll dice here."));
      await t.app.runner.submit(request("Roll 3 dice"), new RecordingSink());
      expect(t.model.toolsOffered(0)).not.toContain("roll_dice");

      expect((await t.app.commands.execute({ kind: "tools_set", tool: "roll_dice", enabled: true }, HERE, ADMIN)).text).toBe(
        "`roll_dice` is now enabled here.",
      );
      t.model.script(reply.toolCalls({ name: "roll_dice", args: { count: 3 } }), (req) => ({
        kind: "message",
        content: `You rolled: ${req.body.messages.at(-1).content.replace("rolled ", "")}.`,
      }));
      const sink = new RecordingSink();
      const answer = await t.app.runner.submit(request("Roll 3 dice"), sink);

      expect(t.model.toolsOffered(1)).toContain("roll_dice");
      expect(sink.steps[1]).toMatchObject({ type: "tool_finished", tool: "roll_dice", output: "rolled 1, 2, 3" });
      expect(answer.text).toBe("You rolled: 1, 2, 3.");
      // another workspace is not affected
      expect((await t.app.access.enabledTools({ platform: "test", workspaceId: "w2" })).map((tool) => tool.name)).not.toContain("roll_dice");
    });

    it("finds nothing and complains about nothing when the folder does not exist", async () => {
      const { logger, lines } = captureLogs();
      const result = await loadPlugins(pluginDir("no-such-folder"), t.app.registry, logger);

      expect(result).toEqual({ loaded: new Map(), problems: [] });
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    });
  });

  it("turns on plugin tools named in DEFAULT_TOOLS", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "calculator,flip_coin" });
    await loadPlugins(pluginDir("good"), t.app.registry, silentLogger());

    const enabled = (await t.app.access.enabledTools(HERE)).map((tool) => tool.name);
    expect(enabled).toEqual(["calculator", "flip_coin"]);
  });

  it('does not turn on plugin tools with DEFAULT_TOOLS "all", which means the built-ins', async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "all" });
    await loadPlugins(pluginDir("good"), t.app.registry, silentLogger());

    const enabled = (await t.app.access.enabledTools(HERE)).map((tool) => tool.name);
    expect(enabled).toContain("calculator");
    expect(enabled).not.toContain("roll_dice");
  });

  it("reports each bad plugin by file name, skips it whole, and still loads the good ones", async () => {
    t = await startTestApp();
    const { logger, lines } = captureLogs();
    const result = await loadPlugins(pluginDir("mixed"), t.app.registry, logger);

    expect(result.loaded).toEqual(new Map([["a-word-count.ts", ["word_count"]]]));
    const reasons = Object.fromEntries(result.problems.map((problem) => [problem.file, problem.reason]));
    expect(Object.keys(reasons).sort()).toEqual([
      "broken-syntax.mjs",
      "calculator-again.ts",
      "date-schema.ts",
      "nothing.ts",
      "plain-spec.ts",
      "z-word-count-again.ts",
    ]);
    expect(reasons["broken-syntax.mjs"]).toMatch(/^it could not be loaded: .+/);
    expect(reasons["calculator-again.ts"]).toBe('a tool named "calculator" already exists');
    expect(reasons["date-schema.ts"]).toMatch(/^it could not be loaded: .*Date cannot be represented in JSON Schema/);
    expect(reasons["nothing.ts"]).toBe("it exports no tools made with defineTool");
    expect(reasons["plain-spec.ts"]).toBe("it exports a tool description that was not passed through defineTool({...})");
    expect(reasons["z-word-count-again.ts"]).toBe('a tool named "word_count" already exists');

    // skipped whole: the other tool of a rejected file is not added either, and built-ins are untouched
    expect(t.app.registry.has("letter_count")).toBe(false);
    expect(t.app.registry.get("calculator")?.origin).toBe("builtin");
    expect(t.app.registry.get("word_count")?.description).toBe("Counts the words of a text.");

    const errors = lines.filter((line) => line.level === 50);
    expect(errors.map((line) => line.plugin).sort()).toEqual(Object.keys(reasons).sort());
    expect(errors.find((line) => line.plugin === "nothing.ts")?.msg).toBe("plugin nothing.ts skipped: it exports no tools made with defineTool");
  });
});
