import { afterEach, describe, expect, it } from "vitest";
import type { defineTool } from "../../../src/tools/define-tool.js";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness, type SlackFrom } from "../../support/slack-harness.js";
import { purgeTool } from "../../support/purge-tool.js";

/**
 * One organisation (E1) with two workspaces (T1, T2), as Slack sends their requests: the
 * envelope's team_id and enterprise_id, users.info's own-workspace is_admin and enterprise_user.
 * The bot's settings, memory and usage are the organisation's, so only its admins may change them.
 */
const T1: SlackFrom = { teamId: "T1", enterpriseId: "E1" };
const T2: SlackFrom = { teamId: "T2", enterpriseId: "E1" };

describe("Slack Enterprise Grid: admins of one workspace do not rule the others", () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  const start = async (env: Record<string, string> = {}, extraTools: ReturnType<typeof defineTool>[] = []) => {
    h = await SlackHarness.start({ env, app: { extraTools } });
    h.slack.addUser({ id: "UT1ASKER", name: "max", teamId: "T1", enterprise: { id: "E1" } });
    h.slack.addUser({ id: "UT1ADMIN", name: "ada", teamId: "T1", isAdmin: true, enterprise: { id: "E1" } });
    h.slack.addUser({ id: "UT2ADMIN", name: "tom", teamId: "T2", isAdmin: true, enterprise: { id: "E1" } });
    h.slack.addUser({ id: "UT2OWNER", name: "tia", teamId: "T2", isOwner: true, enterprise: { id: "E1" } });
    h.slack.addUser({ id: "UORGADMIN", name: "olga", teamId: "T2", enterprise: { id: "E1", isAdmin: true } });
    h.slack.addUser({ id: "UORGOWNER", name: "otto", teamId: "T1", enterprise: { id: "E1", isOwner: true } });
    // An admin of another organisation, met in a channel shared with it (Slack Connect).
    h.slack.addUser({ id: "UE2ADMIN", name: "eve", teamId: "T9", isAdmin: true, enterprise: { id: "E2", isAdmin: true } });
  };

  const answerTo = async (command: string, text: string, userId: string, from: SlackFrom, channel = "C1") => {
    const run = await h.command(command, text, userId, channel, from);
    return (await h.answersAt(run.responseUrl))[0]!;
  };

  /** A mention in T1's channel C1; resolves with the system prompt the model got for it. */
  const promptOfT1Turn = async () => {
    const before = h.model.chatRequests.length;
    h.model.script(reply.text("ok"));
    await h.deliver(
      { type: "app_mention", user: "UT1ASKER", channel: "C1", ts: h.slack.nextTs(), text: `<@${h.slack.botUserId}> hello` },
      { teamId: "T1", enterpriseId: "E1" },
    );
    await h.slack.waitFor(() => h.model.chatRequests.length > before, { what: "the model request" });
    await h.idle();
    return String(h.model.chatRequests.at(-1)!.body.messages[0].content);
  };

  it("refuses a workspace admin or owner of T2 the organisation's settings, tools and usage, in T2 and in T1", async () => {
    await start({ DEFAULT_TOOLS: "calculator" });
    await promptOfT1Turn();

    for (const admin of ["UT2ADMIN", "UT2OWNER"]) {
      expect(await answerTo("/settings", "prompt Answer like a pirate.", admin, T2, "C2")).toMatch(/Only admins can change the bot's settings/);
      expect(await answerTo("/settings", "ignore-user <@UT1ASKER>", admin, T1)).toMatch(/Only admins can change the bot's settings/);
      expect(await answerTo("/tools", "enable circumference", admin, T2, "C2")).toMatch(/Only admins can enable or disable tools/);
      const usage = await answerTo("/usage", "", admin, T2, "C2");
      expect(usage).toMatch(/Only admins can see the usage/);
      expect(usage).not.toContain("UT1ASKER");
    }
    // the refusal names who the admins are here
    expect(await answerTo("/settings", "memory 1", "UT2ADMIN", T2, "C2")).toMatch(/on Enterprise Grid, the organisation's/);
    // T1's turns are as before: no pirate, not ignored
    expect(await promptOfT1Turn()).not.toMatch(/pirate/);
    expect(await h.app.store.workspaceSettings.get({ platform: "slack", workspaceId: "E1" })).toEqual({});
  });

  it("refuses a workspace admin of T1 too: the settings are the organisation's, not T1's alone", async () => {
    await start();
    expect(await answerTo("/settings", "prompt Answer in French.", "UT1ADMIN", T1)).toMatch(/Only admins can change the bot's settings/);
    expect(await promptOfT1Turn()).not.toMatch(/French/);
  });

  it("lets the organisation's admins and owners, and SLACK_ADMIN_USER_IDS, change them from any of its workspaces; every workspace follows", async () => {
    await start({ SLACK_ADMIN_USER_IDS: "UT2ADMIN" });
    expect(await answerTo("/settings", "prompt Answer in French.", "UORGADMIN", T2, "C2")).toMatch(/^Saved/);
    expect(await promptOfT1Turn()).toMatch(/Answer in French\.$/);
    expect(await answerTo("/settings", "prompt Answer in German.", "UORGOWNER", T1)).toMatch(/^Saved/);
    expect(await promptOfT1Turn()).toMatch(/Answer in German\.$/);
    expect(await answerTo("/settings", "prompt Answer in Dutch.", "UT2ADMIN", T2, "C2")).toMatch(/^Saved/);
    expect(await promptOfT1Turn()).toMatch(/Answer in Dutch\.$/);
    const usage = await answerTo("/usage", "", "UORGADMIN", T2, "C2");
    expect(usage).not.toMatch(/Only admins/);
    expect(usage).toContain("UT1ASKER");
  });

  it("gives an admin of another organisation nothing here, and a workspace admin outside Grid no power over another workspace", async () => {
    await start();
    // in E1's shared channel: E2's admin is a member here
    expect(await answerTo("/settings", "prompt Obey eve.", "UE2ADMIN", T1)).toMatch(/Only admins can change the bot's settings/);
    // a workspace outside Grid (T1 alone): T1's admin is an admin, T2's admin met in a shared channel is not
    h.slack.addUser({ id: "USOLOADMIN", name: "sol", teamId: "T1", isAdmin: true });
    h.slack.addUser({ id: "UOTHERADMIN", name: "oth", teamId: "T2", isAdmin: true });
    expect(await answerTo("/settings", "memory 3", "USOLOADMIN", { teamId: "T1" })).toMatch(/remember the last 3 exchanges/);
    expect(await answerTo("/settings", "memory 1", "UOTHERADMIN", { teamId: "T1" })).toMatch(/Only admins can change the bot's settings/);
  });

  it("lets only the organisation's admins approve a tool call in the org (APPROVAL_BY=admin)", async () => {
    const { purge, ran } = purgeTool();
    await start({ DEFAULT_TOOLS: "purge", APPROVAL_BY: "admin" }, [purge]);
    await h.app.access.setApprovalRequired({ platform: "slack", workspaceId: "E1" }, "purge", true, "test");
    h.model.script(reply.toolCalls({ name: "purge", args: { cache: "sessions" } }), reply.text("Purged."));
    const ts = h.slack.nextTs();
    await h.deliver(
      { type: "app_mention", user: "UT1ASKER", channel: "C1", ts, text: `<@${h.slack.botUserId}> purge the cache` },
      { teamId: "T1", enterpriseId: "E1" },
    );
    const request = await h.slack.waitFor(() => h.slack.messages.find((m) => m.blocks.some((block) => block.type === "actions")), { what: "the request" });

    await h.press("UT2ADMIN", request, "approval_approve", T2);
    await h.slack.waitFor(() => h.slack.ephemerals.some((e) => e.user === "UT2ADMIN"), { what: "the refusal to T2's admin" });
    expect(h.slack.ephemerals.find((e) => e.user === "UT2ADMIN")!.text).toMatch(/admin/i);
    expect(ran).toEqual([]);

    await h.press("UORGADMIN", request, "approval_approve", T2);
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === "Purged."), { what: "the answer" });
    expect(ran).toEqual(["sessions"]);
  });
});
