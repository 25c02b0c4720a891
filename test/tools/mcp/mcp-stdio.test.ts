import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpHub } from "../../../src/tools/mcp/mcp-hub.js";
import { silentLogger } from "../../../src/log.js";
import { reply } from "../../fakes/fake-openai.js";
import { callTool } from "../../support/call-tool.js";
import { FAST_RESTARTS, notesServer, waitFor } from "../../support/notes-mcp.js";
import { RecordingSink, request, startTestApp, type TestApp } from "../../support/test-app.js";

const HERE = { platform: "test", workspaceId: "w1", channelId: "c1" };
const ADMIN = { userId: "admin", role: "admin" as const };

describe("tools of a stdio MCP server", () => {
  let t: TestApp;
  let hub: McpHub;
  const savedToken = process.env.DISCORD_TOKEN;

  beforeAll(async () => {
    process.env.DISCORD_TOKEN = "discord-secret-token";
    t = await startTestApp();
    hub = await McpHub.start([notesServer("notes", { NOTES_GREETING: "hello" })], t.app.registry, silentLogger(), FAST_RESTARTS);
  });
  afterAll(async () => {
    await hub.close();
    await t.close();
    if (savedToken === undefined) delete process.env.DISCORD_TOKEN;
    else process.env.DISCORD_TOKEN = savedToken;
  });

  const enable = (tool: string) => t.app.commands.execute({ kind: "tools_set", tool, enabled: true }, HERE, ADMIN);

  it("joins the registry as server__tool with the server's descriptions and JSON schemas", () => {
    expect(hub.status()).toEqual([
      {
        server: "notes",
        state: "ready",
        tools: expect.arrayContaining(["notes__add", "notes__add_note", "notes__list_notes", "notes__stats_count"]),
      },
    ]);
    const add = t.app.registry.get("notes__add")!;
    expect(add.origin).toBe("mcp");
    expect(add.description).toBe("Adds two numbers. Returns the sum.");
    expect(add.jsonSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    // a tool without parameters still gets an object schema the OpenAI API accepts
    expect(t.app.registry.get("notes__list_notes")!.jsonSchema).toMatchObject({ type: "object", properties: {} });
  });

  it("is off in every workspace until an admin enables it, and the tool list shows its origin", async () => {
    const list = (await t.app.commands.execute({ kind: "tools_list" }, { ...HERE, workspaceId: "w-other" }, ADMIN)).text;
    expect(list).toContain("⛔ `notes__add` _(mcp)_: Adds two numbers.");

    t.model.script(reply.text("No tools needed."));
    await t.app.runner.submit(request("hi", { workspaceId: "w-other" }), new RecordingSink());
    expect(t.model.toolsOffered(t.model.chatRequests.length - 1).filter((name) => name.startsWith("notes__"))).toEqual([]);
  });

  it("is called through a full turn once enabled, and its answer reaches the user", async () => {
    await enable("notes__add");
    t.model.script(reply.toolCalls({ name: "notes__add", args: { a: 2, b: 40 } }), (req) => ({
      kind: "message",
      content: `2 + 40 = ${req.body.messages.at(-1).content}`,
    }));
    const sink = new RecordingSink();
    const answer = await t.app.runner.submit(request("What is 2 + 40? Use the notes server."), sink);

    const offered = t.model.chatRequests.at(-2)!.body.tools.find((tool: any) => tool.function.name === "notes__add");
    expect(offered.function).toMatchObject({ description: "Adds two numbers. Returns the sum.", parameters: { required: ["a", "b"] } });
    expect(sink.steps.map((step) => step.type)).toEqual(["tool_started", "tool_finished"]);
    expect(sink.steps[1]).toMatchObject({ tool: "notes__add", output: "42" });
    expect(answer).toMatchObject({ status: "answered", text: "2 + 40 = 42" });
  });

  it("gives the model the server's error result as an error observation", async () => {
    await enable("notes__locked");
    t.model.script(reply.toolCalls({ name: "notes__locked", args: {} }), reply.text("The note store is locked."));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("Lock check"), sink);

    expect(sink.steps[1]).toMatchObject({
      type: "tool_failed",
      error: "notes__locked failed: the note store is locked by another process",
    });
    expect(t.model.chatRequests.at(-1)!.body.messages.at(-1).content).toBe("Error: notes__locked failed: the note store is locked by another process");
  });

  it("checks required arguments before calling the server", async () => {
    t.model.script(reply.toolCalls({ name: "notes__add", args: { a: 1 } }), reply.text("I need both numbers."));
    await t.app.runner.submit(request("Add 1"), new RecordingSink());

    expect(t.model.chatRequests.at(-1)!.body.messages.at(-1).content).toBe("Error: invalid arguments for notes__add: missing required argument(s): b");
  });

  it("starts the server with its configured env and none of the bot's secrets", async () => {
    await enable("notes__environment");
    t.model.script(reply.toolCalls({ name: "notes__environment", args: {} }), reply.text("done"));
    const sink = new RecordingSink();
    await t.app.runner.submit(request("Which variables does the server see?"), sink);

    const names = (sink.steps[1] as { output: string }).output.split(",");
    expect(names).toContain("NOTES_GREETING");
    expect(names).toContain("PATH");
    expect(names).not.toContain("DISCORD_TOKEN");
  });

  it("treats its output as untrusted text: capped for the model and never obeyed as a command", async () => {
    await enable("notes__untrusted_page");
    t.model.script(reply.toolCalls({ name: "notes__untrusted_page", args: {} }), reply.text("That page was not useful."));
    await t.app.runner.submit(request("Read the page"), new RecordingSink());

    const observation: string = t.model.chatRequests.at(-1)!.body.messages.at(-1).content;
    expect(observation.startsWith("SYSTEM OVERRIDE")).toBe(true);
    expect(observation).toMatch(/… \[output shortened: \d+ characters in all\]$/);
    expect(observation.length).toBeLessThan(4_100);
    const crash = (await t.app.access.states(HERE)).find((state) => state.name === "notes__crash");
    expect(crash).toMatchObject({ enabled: false, source: "default" });
  });

  it("picks up tools the server adds later (tools/list_changed), off until enabled like the others", async () => {
    expect(t.app.registry.has("notes__greet")).toBe(false);
    await callTool(t.app.registry.get("notes__learn_greeting")!, {});
    await waitFor(() => t.app.registry.has("notes__greet"), "the new tool to be registered", 5_000);

    expect(t.app.registry.get("notes__greet")).toMatchObject({ origin: "mcp", description: "Says hello." });
    expect((await t.app.access.states(HERE)).find((state) => state.name === "notes__greet")?.enabled).toBe(false);
    expect((await callTool(t.app.registry.get("notes__greet")!, { name: "Ada" })).observation).toBe("Hello, Ada!");
  });
});
