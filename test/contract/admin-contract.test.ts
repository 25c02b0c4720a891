import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { silentLogger } from "../../src/log.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { McpHub } from "../../src/tools/mcp/mcp-hub.js";
import { reply, type RecordedRequest, type Responder } from "../fakes/fake-openai.js";
import { FAST_RESTARTS, notesServer } from "../support/notes-mcp.js";
import { dbOf } from "../support/test-app.js";
import { discordDriver } from "./drivers/discord.js";
import type { PlatformDriver } from "./drivers/driver.js";
import { slackDriver } from "./drivers/slack.js";
import { terminalDriver } from "./drivers/terminal.js";

/**
 * Admins in control, the same on every platform: approval before a tool runs (buttons on Discord
 * and Slack, a typed yes or no in the terminal), per-channel policy, usage reports and the
 * per-user budget. Asserted as people see it; the audit and the turns table where they cannot.
 */

/** The last message the model received: a tool's result (or why it did not run) after a call. */
const lastMessage = (request: RecordedRequest): string => String(request.body.messages.at(-1).content);
const answerWithLastMessage: Responder = (request) => ({ kind: "message", content: `after: ${lastMessage(request)}` });
const echo: Responder = (request) => ({ kind: "message", content: `re: ${lastMessage(request)}` });

/** A tool nobody should run unasked: it records what it shredded. */
function shredTool(shredded: string[]) {
  return defineTool({
    name: "shred",
    description: "Shreds a file for good.",
    parameters: z.object({ file: z.string() }),
    run: ({ file }) => {
      shredded.push(file);
      return `shredded ${file}`;
    },
  });
}

describe.each([discordDriver, slackDriver, terminalDriver])("admins in control on $name", (platform) => {
  let driver: PlatformDriver | undefined;
  let hub: McpHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
    await driver?.close();
    driver = undefined;
  });

  /** A bot with the shred tool, which an admin has marked as needing approval. */
  const startWithShred = async (env: Record<string, string> = {}) => {
    const shredded: string[] = [];
    const d = (driver = await platform.start({ DEFAULT_TOOLS: "shred,circumference", ...env }, { extraTools: [shredTool(shredded)] }));
    expect(await d.command("tools require-approval shred", "admin")).toBe(
      d.shows("Each call of `shred` here now waits for a person's approval before it runs."),
    );
    d.model.script(reply.toolCalls({ name: "shred", args: { file: "notes.txt" } }), answerWithLastMessage);
    return { d, shredded };
  };

  const auditOf = (d: PlatformDriver) =>
    dbOf(d.app()).prepare("SELECT tool, args_json AS args, status, decided_by AS decidedBy, decided_at AS decidedAt FROM approvals").all() as {
      tool: string;
      args: string;
      status: string;
      decidedBy: string | null;
      decidedAt: number | null;
    }[];

  it("shows the call with Approve and Deny, runs nothing until the asker approves, then runs it and says who approved", async () => {
    const { d, shredded } = await startWithShred();
    const question = await d.ask("please shred notes.txt");

    const request = await d.approval();
    expect(request.text()).toMatch(/Approval needed[\s\S]*shred[\s\S]*notes\.txt/);
    expect(request.hasControls()).toBe(true);
    expect(shredded).toEqual([]);

    expect(await request.press("approve", "asker")).toBe("");
    const seen = await d.seen(question);

    expect(seen.answer).toEqual(["after: shredded notes.txt"]);
    expect(shredded).toEqual(["notes.txt"]);
    expect(request.text()).toMatch(/^✅ Approved by .*shred/);
    expect(request.hasControls()).toBe(false);
    expect(auditOf(d)).toEqual([
      { tool: "shred", args: '{"file":"notes.txt"}', status: "approved", decidedBy: expect.any(String), decidedAt: expect.any(Number) },
    ]);
  });

  it("denied by an admin: the tool does not run, the model is told, and the turn goes on", async () => {
    const { d, shredded } = await startWithShred();
    const question = await d.ask("please shred notes.txt");

    expect(await (await d.approval()).press("deny", "admin")).toBe("");
    const seen = await d.seen(question);

    expect(shredded).toEqual([]);
    expect(seen.answer[0]).toMatch(/^after: Error: a person denied this call to shred, so it did not run\./);
    expect(auditOf(d)[0]).toMatchObject({ status: "denied", decidedBy: expect.any(String) });
  });

  it("without an answer within APPROVAL_TIMEOUT_MS the tool does not run, and the request says so", async () => {
    const { d, shredded } = await startWithShred({ APPROVAL_TIMEOUT_MS: "200" });
    const question = await d.ask("please shred notes.txt");
    const request = await d.approval();
    const seen = await d.seen(question);

    expect(shredded).toEqual([]);
    expect(seen.answer[0]).toMatch(/^after: Error: nobody approved this call to shred in time/);
    expect(request.text()).toMatch(/^⌛ No decision within 200 ms: .*shred.* did not run\.$/);
    expect(request.hasControls()).toBe(false);
    expect(auditOf(d)[0]).toMatchObject({ status: "timed_out", decidedBy: null });
  });

  it.skipIf(!platform.can.members)(
    "tells a stranger pressing Approve privately that they may not, and changes nothing (not on the terminal: it has no one else)",
    async () => {
      const { d, shredded } = await startWithShred();
      const question = await d.ask("please shred notes.txt");
      const request = await d.approval();

      expect(await request.press("approve", "stranger")).toBe("Only the person who asked, or an admin, can approve or deny this.");
      expect(request.hasControls()).toBe(true);
      expect(shredded).toEqual([]);

      expect(await request.press("approve", "admin")).toBe("");
      await d.seen(question);
      expect(shredded).toEqual(["notes.txt"]);
    },
  );

  it.skipIf(!platform.can.restarts)(
    "after a restart a late press finds the request expired, and nothing runs (not on the terminal: it does not restart under you)",
    async () => {
      const { d, shredded } = await startWithShred();
      const question = await d.ask("please shred notes.txt");
      const request = await d.approval();

      await d.restart();
      expect((await d.seen(question)).answer).toEqual(["⚠️ The bot restarted before I could finish this. Please ask again in a minute."]);
      expect(request.text()).toMatch(/^⌛ The bot stopped before a decision: .*shred.* did not run\.$/);

      expect(await request.press("approve", "asker")).toMatch(/^This request expired/);
      expect(shredded).toEqual([]);
      expect(auditOf(d)[0]).toMatchObject({ status: "expired", decidedBy: null });
    },
  );

  it("an MCP tool its server marks destructive (and not read-only) waits for approval by default, until an admin says otherwise", async () => {
    const d = (driver = await platform.start({ DEFAULT_TOOLS: "notes__add_note,notes__delete_notes,notes__count_words" }));
    hub = await McpHub.start([notesServer()], d.app().registry, silentLogger(), FAST_RESTARTS);
    const lineOf = (list: string, tool: string) => list.split("\n").find((line) => line.includes(tool)) ?? "";

    const list = await d.command("tools", "admin");
    expect(lineOf(list, "notes__delete_notes")).toContain("needs approval");
    expect(lineOf(list, "notes__count_words")).not.toContain("needs approval");
    expect(lineOf(list, "notes__add_note")).not.toContain("needs approval");

    d.model.script(
      reply.toolCalls({ name: "notes__add_note", args: { text: "milk" } }),
      reply.toolCalls({ name: "notes__delete_notes", args: {} }),
      answerWithLastMessage,
    );
    const question = await d.ask("note milk, then delete all notes");
    const request = await d.approval();
    expect(request.text()).toMatch(/Approval needed[\s\S]*notes__delete_notes/);
    expect(await request.press("approve", "asker")).toBe("");
    expect((await d.seen(question)).answer).toEqual(["after: Deleted 1 note(s)."]);

    await d.command("tools no-approval notes__delete_notes", "admin");
    expect(lineOf(await d.command("tools", "admin"), "notes__delete_notes")).not.toContain("needs approval");
  });

  it("per channel: the channel's off wins over the server's on, its on cannot enable what the server has off, and its threads follow it", async () => {
    const d = (driver = await platform.start());
    d.model.otherwise(echo);
    await d.command("tools disable arxiv", "admin");

    expect(await d.command("settings channel tools calculator off", "admin")).toMatch(/^`?calculator`? is now off in (<#\S+>|#\S+) and its threads\.$/);
    expect(await d.command("settings channel tools arxiv on", "admin")).toMatch(/but the server has it off, so it stays off/);
    d.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("About 6.28."));
    const first = await d.ask("which tools?");
    await d.seen(first);
    await d.seen(await d.followUp(first, "and in the thread?"));

    // The question (two model calls, with a tool step: its thread opens) and the follow-up in that thread.
    for (const request of [0, 1, 2]) {
      expect(d.model.toolsOffered(request)).not.toContain("calculator");
      expect(d.model.toolsOffered(request)).not.toContain("arxiv");
      expect(d.model.toolsOffered(request)).toContain("circumference");
    }
    const settings = await d.command("settings", "admin");
    expect(settings).toMatch(/Tools off here: .*calculator[\W_]+\(channel\)/);
    expect(settings).toMatch(/Tools off here: .*arxiv[\W_]+\(server\)/);

    await d.command("settings channel reset", "admin");
    await d.seen(await d.ask("and now?"));
    expect(d.model.toolsOffered(3)).toContain("calculator");
  });

  it("per channel: the model chosen from OPENAI_MODELS reaches the model request, in the channel's threads too", async () => {
    const d = (driver = await platform.start({ OPENAI_MODELS: "fake-small,fake-large" }));
    d.model.otherwise(echo);

    expect(await d.command("settings channel model fake-huge", "admin")).toBe(
      d.shows("There is no model `fake-huge` to choose. Choices: `fake-small`, `fake-large`."),
    );
    await d.command("settings channel model fake-large", "admin");
    await d.command("settings channel prompt Answer like a pirate.", "admin");
    d.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("About 6.28."));
    const first = await d.ask("hello?");
    await d.seen(first);
    await d.seen(await d.followUp(first, "again?"));
    await d.command("settings channel model default", "admin");
    await d.seen(await d.ask("and now?"));

    expect(d.model.chatRequests.map((request) => request.body.model)).toEqual(["fake-large", "fake-large", "fake-large", "fake-small"]);
    expect(d.model.chatRequests[1]!.body.messages[0].content).toMatch(/Answer like a pirate\.$/);
    expect(await d.command("settings", "admin")).toMatch(/Model: \W*fake-small[\W_]+\(default\)/);
  });

  it("/usage shows an admin the turns and tokens recorded, by user, channel and model, with the estimated cost", async () => {
    const d = (driver = await platform.start({ OPENAI_MODELS: "fake-model", MODEL_PRICES: "fake-model=1000/2000" }));
    d.model.script(reply.toolCalls({ name: "circumference", args: { radius: 1 } }), reply.text("About 6.28."));
    await d.seen(await d.ask("circumference of radius 1?"));
    d.model.script(reply.text("Hello!", { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 }));
    await d.seen(await d.ask("hi"));

    const usage = await d.command("usage", "admin");

    const recorded = dbOf(d.app()).prepare("SELECT COUNT(*) AS turns, SUM(prompt_tokens) AS tokensIn, SUM(completion_tokens) AS tokensOut FROM turns").get();
    expect(recorded).toEqual({ turns: 2, tokensIn: 27, tokensOut: 13 });
    // 27 tokens in at $1000 and 13 out at $2000 per million: $0.053
    const figures = "2 turns, 27 tokens in, 13 out";
    expect(usage).toMatch(new RegExp(`Today \\(UTC\\):\\**\\s${figures}, about \\$0\\.053`));
    expect(usage).toMatch(new RegExp(`Last 30 days:\\**\\s${figures}, about \\$0\\.053`));
    expect(usage).toMatch(new RegExp(`By user: \\S+ ${figures}\\n`));
    expect(usage).toMatch(new RegExp(`By channel: \\S+ ${figures}\\n`));
    expect(usage).toMatch(new RegExp(`By model: \\S*fake-model\\S* ${figures} \\(\\$0\\.053\\)`));
    if (platform.can.members) expect(await d.command("usage", "member")).toMatch(/^Only admins can see the usage\./);
  });

  it("refuses a user past DAILY_USER_TOKEN_BUDGET with one polite notice, before calling the model", async () => {
    // Each call's prompt must fit what remains too: the budget leaves room for two turns.
    const d = (driver = await platform.start({ DAILY_USER_TOKEN_BUDGET: "3000" }));
    d.model.otherwise(reply.text("ok", { prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500 }));
    await d.seen(await d.ask("one"));
    await d.seen(await d.ask("two"));

    const refused = await d.ask("three");

    expect((await d.seen(refused)).answer).toEqual([
      expect.stringMatching(/^Your daily budget \(3,000 tokens\) is used up until \d{4}-\d\d-\d\d 00:00 UTC\.$/),
    ]);
    expect(d.model.chatRequests).toHaveLength(2);
  });
});
