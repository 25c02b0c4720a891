import type { App as BoltApp } from "@slack/bolt";
import { blockPressSchema } from "./block-press.js";
import type { Logger } from "../../log.js";
import { FEEDBACK_ACTION, readFeedbackValue } from "./feedback-blocks.js";
import { PLATFORM, placeOf, workspaceOf } from "./inbound.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackContext, WorkspaceSession } from "./workspace-sessions.js";

/**
 * 👍 / 👎 under an answer (Slack's feedback buttons), over HTTP or Socket Mode: acknowledged at
 * once, recorded by the core, and the presser alone told that it was counted (chat.postEphemeral).
 */
export function registerFeedbackActions(bolt: BoltApp, deps: { logger: Logger; sessionOf(context: SlackContext): WorkspaceSession | undefined }): void {
  bolt.action({ action_id: FEEDBACK_ACTION }, async ({ ack, body, context }) => {
    await ack();
    const session = deps.sessionOf(context as SlackContext);
    if (!session) return deps.logger.warn("a press on a feedback button came without a bot token; ignored");
    const parsed = blockPressSchema.safeParse(body);
    const press = parsed.success ? parsed.data : undefined;
    const button = press?.actions[0]?.value ? readFeedbackValue(press.actions[0].value) : undefined;
    if (!press || !button) return deps.logger.warn("a press on a feedback button came in an unexpected shape");
    const place = placeOf({ enterprise_id: press.enterprise?.id, team_id: press.team?.id });
    const answer = await session.link.recordFeedback({ platform: PLATFORM, workspaceId: workspaceOf(place), ...button, userId: press.user.id });
    if (!press.channel) return;
    await session.api.postEphemeral({
      channel: press.channel.id,
      user: press.user.id,
      text: markdownToMrkdwn(answer.text),
      threadTs: press.message?.thread_ts ?? press.message?.ts,
    });
  });
}
