import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { SlackHarness } from "../../support/slack-harness.js";

describe("Slack slash commands", () => {
  let h: SlackHarness;
  const start = async (env: Record<string, string> = {}) => {
    h = await SlackHarness.start({ env });
    h.slack.addUser({ id: "UADMIN", name: "ada", isAdmin: true });
    h.slack.addUser({ id: "UOWNER", name: "olga", isOwner: true });
    h.slack.addUser({ id: "UMEMBER", name: "max" });
  };
  afterEach(() => h.close());

  /** Mentions the bot and returns the tool names the model was offered for that turn. */
  const toolsOfferedToNextTurn = async () => {
    const before = h.model.chatRequests.length;
    h.model.script(reply.text("ok"));
    await h.mention({ user: "UMEMBER", channel: "C1", ts: h.slack.nextTs(), text: "which tools?" });
    await h.slack.waitFor(() => h.model.chatRequests.length > before, { what: "the model request" });
    await h.idle();
    return h.model.toolsOffered(before);
  };

  it("offers no role commands, since Slack has no roles: /settings ignore-role answers with the usage and changes nothing", async () => {
    await start();
    const run = await h.command("/settings", "ignore-role <!subteam^S1|devs>", "UADMIN");
    const [answer] = await h.answersAt(run.responseUrl);
    expect(answer).toContain("/settings ignore-user @user");
    expect(answer).not.toContain("ignore-role");
    const shown = await h.command("/settings", "show", "UADMIN");
    expect((await h.answersAt(shown.responseUrl))[0]).toContain("Ignored roles: none");
  });

  it("lets admins change this workspace's settings with /settings, refuses members, and the next turn follows them", async () => {
    await start();
    const refused = await h.command("/settings", "memory 1", "UMEMBER");
    expect((await h.answersAt(refused.responseUrl))[0]).toMatch(/Only admins can change the bot's settings/);

    const channels = await h.command("/settings", "channels add <#C1|general>", "UADMIN");
    expect(await h.answersAt(channels.responseUrl)).toEqual(["I now answer only in: <#C1>."]);
    const prompt = await h.command("/settings", "prompt Answer in French.", "UADMIN");
    expect((await h.answersAt(prompt.responseUrl))[0]).toMatch(/^Saved/);
    await toolsOfferedToNextTurn();
    expect(h.model.chatRequests.at(-1)!.body.messages[0].content).toMatch(/Answer in French\.$/);

    const before = h.model.chatRequests.length;
    await h.mention({ user: "UMEMBER", channel: "C2", ts: h.slack.nextTs(), text: "hello from elsewhere" });
    await h.slack.waitFor(() => h.slack.callsTo("chat.postMessage").some((c) => c.params.channel === "C2"), {
      what: "the refusal in C2",
    });
    await h.idle();
    expect(h.slack.callsTo("chat.postMessage").find((c) => c.params.channel === "C2")!.params.text).toMatch(/not enabled in this channel/);
    expect(h.model.chatRequests.length).toBe(before);
  });

  it("refuses a non-admin's /tools enable with an ephemeral message and changes nothing", async () => {
    await start({ DEFAULT_TOOLS: "calculator" });
    const { status, responseUrl } = await h.command("/tools", "enable circumference", "UMEMBER");
    expect(status).toBe(200);
    const [answer] = await h.answersAt(responseUrl);
    expect(answer).toMatch(/Only admins can enable or disable tools/);
    expect(answer).toMatch(/workspace's admins and owners/);
    expect(h.slack.responses[0]!.body.response_type).toBe("ephemeral");
    expect(await toolsOfferedToNextTurn()).toEqual(["calculator"]);
    expect(h.slack.callsTo("chat.postMessage").map((c) => c.params.text)).not.toContainEqual(expect.stringMatching(/admin/));
  });

  it("treats workspace owners and SLACK_ADMIN_USER_IDS as admins, and caches users.info", async () => {
    await start({ SLACK_ADMIN_USER_IDS: "UMEMBER", DEFAULT_TOOLS: "calculator" });
    const byOwner = await h.command("/tools", "enable circumference", "UOWNER");
    expect(await h.answersAt(byOwner.responseUrl)).toEqual(["`circumference` is now enabled here."]);
    const byListed = await h.command("/tools", "enable hypotenuse", "UMEMBER");
    expect(await h.answersAt(byListed.responseUrl)).toEqual(["`hypotenuse` is now enabled here."]);
    await h.command("/tools", "disable hypotenuse", "UMEMBER");
    await h.slack.waitFor(() => h.slack.responses.length === 3, { what: "the third answer" });
    expect(h.slack.callsTo("users.info").filter((c) => c.params.user === "UMEMBER")).toHaveLength(1);
  });

  it("lists the tools with their state, ephemerally, converted to mrkdwn", async () => {
    await start({ DEFAULT_TOOLS: "calculator" });
    const { responseUrl } = await h.command("/tools", "", "UMEMBER");
    const [answer] = await h.answersAt(responseUrl);
    expect(answer).toMatch(/^\*Tools here\* \(✅ on, ⛔ off\):/);
    expect(answer).toContain("✅ `calculator`");
    expect(answer).toContain("⛔ `circumference`");
  });

  it("shows the channel's memory to anyone and lets only admins clear it", async () => {
    await start();
    h.model.script(reply.text("Paris is the capital of France."));
    await h.mention({ user: "UMEMBER", channel: "C1", ts: h.slack.nextTs(), text: "capital of France?" });
    await h.slack.waitFor(() => h.slack.messages.length === 1, { what: "the answer" });
    await h.idle();

    const shown = await h.command("/memory", "show", "UMEMBER");
    expect((await h.answersAt(shown.responseUrl))[0]).toMatch(/\*max:\* capital of France\?\n\*bot:\* Paris is the capital of France\./);
    const refused = await h.command("/memory", "clear", "UMEMBER");
    expect((await h.answersAt(refused.responseUrl))[0]).toMatch(/Only admins and moderators can clear the memory/);
    const cleared = await h.command("/memory", "clear", "UADMIN");
    expect((await h.answersAt(cleared.responseUrl))[0]).toMatch(/forgotten/);
    const after = await h.command("/memory", "show", "UMEMBER");
    expect((await h.answersAt(after.responseUrl))[0]).toBe("I don't remember anything of this conversation yet.");
  });

  it("answers an unknown sub-command with the usage, naming the configured commands", async () => {
    await start({ SLACK_COMMAND_TOOLS: "agent-tools", SLACK_COMMAND_MEMORY: "/agent-memory", SLACK_COMMAND_ASK: "/agent-ask" });
    const { responseUrl } = await h.command("/agent-tools", "frobnicate", "UMEMBER");
    const [answer] = await h.answersAt(responseUrl);
    expect(answer).toContain("`/agent-tools enable NAME`");
    expect(answer).toContain("`/agent-memory clear`");
    expect(answer).toContain("`/agent-ask QUESTION`");
  });

  it("/ask posts the question in the channel, then the steps and the answer in its thread", async () => {
    await start({ SLACK_COMMAND_ASK: "/agent-ask" });
    h.model.script(reply.toolCalls({ name: "hypotenuse", args: { adjacent_side: 3, opposite_side: 4 } }), reply.text("The hypotenuse is 5."));
    const { status } = await h.command("/agent-ask", "hypotenuse of 3 and 4? <!channel>", "UMEMBER");
    expect(status).toBe(200);
    const question = await h.slack.waitFor(() => h.slack.topLevel("C1")[0], { what: "the question" });
    expect(question.text).toBe("<@UMEMBER> asked: hypotenuse of 3 and 4? @\u200Bchannel");
    await h.slack.waitFor(() => h.slack.thread("C1", question.ts).length === 2, { what: "step and answer" });
    await h.idle();
    const [step, answer] = h.slack.thread("C1", question.ts);
    expect(step!.text).toMatch(/^✅ `hypotenuse` `\{"adjacent_side":3,"opposite_side":4\}` → `5`/);
    expect(answer!.text).toBe("The hypotenuse is 5.");
    expect(h.slack.responses).toEqual([]);
  });

  it("/ask in a channel the bot is not in tells the user, ephemerally, to invite it", async () => {
    await start();
    h.slack.fail("chat.postMessage", { error: "not_in_channel" }, { when: (params) => params.channel === "C9" });
    const { responseUrl } = await h.command("/ask", "hello?", "UMEMBER", "C9");
    expect((await h.answersAt(responseUrl))[0]).toMatch(/I'm not in this channel yet. Invite me/);
    expect(h.model.chatRequests).toHaveLength(0);
  });
});
