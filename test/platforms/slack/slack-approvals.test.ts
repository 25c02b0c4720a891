import { describe, expect } from "vitest";
import { botTest as it } from "../../support/started-bots.js";
import { reply } from "../../fakes/fake-openai.js";
import { purgeTool } from "../../support/purge-tool.js";

describe("Slack: approval buttons over Socket Mode", () => {
  it("posts Block Kit buttons in the mention's thread, takes a press as an `interactive` envelope, and replaces the buttons with the decision", async ({
    startSlack,
  }) => {
    const { purge, ran } = purgeTool();
    const h = await startSlack({ mode: "socket", env: { DEFAULT_TOOLS: "purge" }, app: { extraTools: [purge] } });
    h.slack.addUser({ id: "UASKER", name: "<!here> max" });
    await h.app.access.setApprovalRequired({ platform: "slack", workspaceId: "T1" }, "purge", true, "test");
    h.model.script(reply.toolCalls({ name: "purge", args: { cache: "<!channel>" } }), reply.text("Purged."));

    const ts = h.slack.nextTs();
    await h.mention({ user: "UASKER", channel: "C1", ts, text: "purge the cache" });
    const request = await h.slack.waitFor(() => h.slack.messages.find((m) => m.blocks.some((block) => block.type === "actions")), { what: "the request" });

    expect(request.threadTs).toBe(ts);
    expect(request.blocks[1].elements.map((e: any) => [e.action_id, e.style, e.text.text])).toEqual([
      ["approval_approve", "primary", "Approve"],
      ["approval_deny", "danger", "Deny"],
    ]);
    // The asker's name and the arguments are shown, escaped: nobody is pinged.
    expect(request.blocks[0].text.text).toContain("*Approval needed* to run `purge`");
    expect(request.text).not.toMatch(/<!here>|<!channel>/);

    await h.press("UASKER", request, "approval_approve");
    await h.slack.waitFor(() => h.slack.thread("C1", ts).some((m) => m.text === "Purged."), { what: "the answer" });

    expect(ran).toEqual(["<!channel>"]);
    expect(request.text).toMatch(/^✅ Approved by `&lt;!here&gt; max`: `purge`/);
    expect(request.blocks).toEqual([{ type: "section", text: { type: "mrkdwn", text: request.text } }]);
    expect(h.slack.acks.length).toBeGreaterThanOrEqual(2);
  });
});
