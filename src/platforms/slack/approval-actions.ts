import type { App as BoltApp } from "@slack/bolt";
import { blockPressSchema } from "./block-press.js";
import type { Logger } from "../../log.js";
import { APPROVE_ACTION, DENY_ACTION, settledBlocks } from "./approval-blocks.js";
import { PLATFORM, placeOf, workspaceOf } from "./inbound.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackContext, WorkspaceSession } from "./workspace-sessions.js";

export interface ApprovalActionDeps {
  logger: Logger;
  /** The workspace's session (its token, its link to the core); none without a bot token. */
  sessionOf(context: SlackContext): WorkspaceSession | undefined;
}

/**
 * Approve and Deny (Block Kit buttons), over HTTP or Socket Mode: acknowledged at once, decided by
 * the core. A decision replaces the buttons (chat.update); a refusal or an expired request is told
 * to the presser alone (chat.postEphemeral).
 */
export function registerApprovalActions(bolt: BoltApp, { logger, sessionOf }: ApprovalActionDeps): void {
  const handle = async ({ ack, body, context }: { ack: () => Promise<void>; body: unknown; context: SlackContext }) => {
    await ack();
    const session = sessionOf(context);
    if (!session) return logger.warn("a press on an approval button came without a bot token; ignored");
    const { link, api, actorOf } = session;
    const parsed = blockPressSchema.safeParse(body);
    if (!parsed.success) return logger.warn("a press on an approval button came in an unexpected shape");
    const press = parsed.data;
    const [action] = press.actions;
    if (!action?.value || !press.channel || !press.message) return;
    const place = placeOf({ enterprise_id: press.enterprise?.id, team_id: press.team?.id });
    const answer = await link.decideApproval({
      platform: PLATFORM,
      workspaceId: workspaceOf(place),
      approvalId: action.value,
      decision: action.action_id === APPROVE_ACTION ? "approve" : "deny",
      actor: await actorOf(press.user.id, place),
    });
    const text = markdownToMrkdwn(answer.text);
    const channel = press.channel.id;
    if (answer.kind === "decided") await api.updateMessage(channel, press.message.ts, text, { blocks: settledBlocks(text) });
    else await api.postEphemeral({ channel, user: press.user.id, text, threadTs: press.message.thread_ts });
  };
  bolt.action({ action_id: APPROVE_ACTION }, handle);
  bolt.action({ action_id: DENY_ACTION }, handle);
}
