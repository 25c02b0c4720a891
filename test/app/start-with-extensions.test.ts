import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { reply } from "../fakes/fake-openai.js";
import { startChildBot } from "../support/child-bot.js";
import { notesServer } from "../support/notes-mcp.js";
import { useModelAndFolder } from "../support/model-and-folder.js";

const BAD_AND_GOOD_PLUGINS = fileURLToPath(new URL("../fixtures/plugins/mixed/", import.meta.url));

describe("npm start with plugins and an MCP server", () => {
  const scratch = useModelAndFolder("agent-bot-start-");

  it("loads the good plugins and the MCP tools, reports bad plugins by file name, answers, and exits cleanly", async () => {
    const notes = notesServer();
    if (notes.kind !== "stdio") throw new Error("the notes server runs over stdio");
    writeFileSync(join(scratch.dir, "mcp.json"), JSON.stringify({ mcpServers: { notes: { command: notes.command, args: notes.args } } }));
    scratch.model.script(reply.toolCalls({ name: "notes__add", args: { a: 5, b: 8 } }), (req) => ({
      kind: "message",
      content: `5 + 8 = ${req.body.messages.at(-1).content}`,
    }));

    const bot = startChildBot(
      {
        OPENAI_BASE_URL: scratch.model.url,
        DATABASE_PATH: join(scratch.dir, "bot.sqlite"),
        TOOLS_DIR: BAD_AND_GOOD_PLUGINS,
        MCP_CONFIG: join(scratch.dir, "mcp.json"),
        DEFAULT_TOOLS: "calculator,notes__add",
      },
      scratch.dir,
    );
    bot.process.stdin.end("/tools\nWhat is 5 + 8?\n");
    const { code } = await bot.exited;
    const result = { stdout: bot.stdout(), stderr: bot.stderr() };

    expect(code).toBe(0);
    expect(result.stdout).toContain("⛔ word_count (plugin): Counts the words of a text.");
    expect(result.stdout).toContain("✅ notes__add (mcp): Adds two numbers.");
    expect(result.stdout).toContain("⛔ notes__add_note (mcp): Saves a short note.");
    expect(result.stdout).toContain("bot: 5 + 8 = 13");
    for (const file of ["broken-syntax.mjs", "calculator-again.ts", "date-schema.ts", "nothing.ts", "plain-spec.ts"]) {
      expect(result.stderr).toContain(`plugin ${file} skipped`);
    }
  });
});
