import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpHub } from "../../../src/tools/mcp/mcp-hub.js";
import { reply } from "../../fakes/fake-openai.js";
import { captureLogs } from "../../support/log-capture.js";
import { FAST_RESTARTS, notesServer, waitFor } from "../../support/notes-mcp.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../../support/test-app.js";

const HERE = { platform: "test", workspaceId: "w1", channelId: "c1" };
const ADMIN = { userId: "admin", role: "admin" as const };

describe("an MCP server that fails", () => {
  let t: TestApp;
  let hub: McpHub | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await hub?.close();
    await t.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("while running: its tools are marked unavailable, the turn gets a clear error, and it is restarted", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "notes__crash,notes__add" });
    const { logger, lines } = captureLogs();
    hub = await McpHub.start([notesServer()], t.app.registry, logger, { ...FAST_RESTARTS, initialBackoffMs: 3_000 });

    t.model.script(
      reply.toolCalls({ name: "notes__crash", args: {} }),
      reply.toolCalls({ name: "notes__add", args: { a: 1, b: 2 } }),
      reply.text("The notes server is down right now."),
    );
    const sink = new RecordingSink();
    const answer = await t.app.runner.submit(request("Crash it, then add 1 and 2"), sink);

    expect(answer).toMatchObject({ status: "answered", text: "The notes server is down right now." });
    expect(sink.steps.map((step) => [step.type, step.tool])).toEqual([
      ["tool_started", "notes__crash"],
      ["tool_failed", "notes__crash"],
      ["tool_started", "notes__add"],
      ["tool_failed", "notes__add"],
    ]);
    expect(t.model.chatRequests[2]!.body.messages.at(-1).content).toBe(
      'Error: notes__add failed: MCP server "notes" is not running (it failed to start or stopped); the bot is restarting it, so try again in a while.',
    );
    expect(hub.status()[0]!.state).not.toBe("ready");
    const list = (await t.app.commands.execute({ kind: "tools_list" }, HERE, ADMIN)).text;
    expect(list).toContain('`notes__add` _(mcp)_: (unavailable: MCP server "notes" is not running) Adds two numbers.');
    expect(lines.some((line) => line.level === 50 && line.msg === "MCP server notes stopped")).toBe(true);

    await waitFor(() => hub!.status()[0]!.state === "ready", "the notes server to be restarted");
    t.model.script(reply.toolCalls({ name: "notes__add", args: { a: 1, b: 2 } }), (req) => ({
      kind: "message",
      content: `It is ${req.body.messages.at(-1).content}.`,
    }));
    const again = await t.app.runner.submit(request("Add 1 and 2"), new RecordingSink());
    expect(again.text).toBe("It is 3.");
    expect(t.app.registry.get("notes__add")!.description).toBe("Adds two numbers. Returns the sum.");
  });

  it("at start-up: it is reported, the bot carries on, and its tools join once a restart succeeds", async () => {
    t = await startTestApp({ DEFAULT_TOOLS: "flaky__add" });
    dir = mkdtempSync(join(tmpdir(), "agent-bot-mcp-"));
    const marker = join(dir, "failed-once");
    const { logger, lines } = captureLogs();
    hub = await McpHub.start([notesServer("flaky", { NOTES_FAIL_ONCE_FILE: marker })], t.app.registry, logger, FAST_RESTARTS);

    // start-up went on although the first start failed (the marker file proves the server ran)
    expect(existsSync(marker)).toBe(true);
    expect(hub.status()).toEqual([{ server: "flaky", state: "down", tools: [] }]);
    expect(t.app.registry.has("flaky__add")).toBe(false);
    const failure = lines.find((line) => line.msg === "MCP server flaky failed to start");
    expect(failure).toMatchObject({ level: 50, mcpServer: "flaky" });
    expect(lines.some((line) => line.mcpServer === "flaky" && String(line.msg).includes("simulated start-up failure"))).toBe(true);

    await waitFor(() => t.app.registry.has("flaky__add"), "the flaky server's tools after its restart");
    expect(hub.status()[0]!.state).toBe("ready");
    t.model.script(reply.toolCalls({ name: "flaky__add", args: { a: 20, b: 22 } }), (req) => ({
      kind: "message",
      content: `The sum is ${req.body.messages.at(-1).content}.`,
    }));
    const answer = await t.app.runner.submit(request("Add 20 and 22"), new RecordingSink());
    expect(answer.text).toBe("The sum is 42.");
  });
});
