import type { App as BoltApp } from "@slack/bolt";
import { z } from "zod";
import type { Logger } from "../../log.js";
import type { Actor } from "../../contract/inbound.js";
import type { PlatformLink } from "../../contract/link.js";
import { APPROVE_ACTION, DENY_ACTION, settledBlocks } from "./approval-blocks.js";
import { PLATFORM, placeOf, workspaceOf, type SlackPlace } from "./inbound.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackApi } from "./slack-api.js";

export interface ApprovalActionDeps {
  link: PlatformLink;
  api: SlackApi;
  logger: Logger;
  actorOf(userId: string, place: SlackPlace): Promise<Actor>;
}

/** The fields of a `block_actions` payload a press needs; anything else passes through. */
const pressSchema = z.object({
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }).nullish(),
  enterprise: z.object({ id: z.string() }).nullish(),
  channel: z.object({ id: z.string() }).optional(),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional() }).optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

/**
 * Approve and Deny (Block Kit buttons), over HTTP or Socket Mode: acknowledged at once, decided by
 * the core. A decision replaces the buttons (chat.update); a refusal or an expired request is told
 * to the presser alone (chat.postEphemeral).
 */
export function registerApprovalActions(bolt: BoltApp, { link, api, logger, actorOf }: ApprovalActionDeps): void {
  const handle = async ({ ack, body }: { ack: () => Promise<void>; body: unknown }) => {
    await ack();
    const parsed = pressSchema.safeParse(body);
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
