import type { App as BoltApp, types } from "@slack/bolt";
import { z } from "zod";
import type { Actor } from "../../contract/inbound.js";
import type { Logger } from "../../log.js";
import { sectionBlocks } from "./feedback-blocks.js";
import { PLATFORM, placeOf, workspaceOf, type SlackEnvelope, type SlackPlace } from "./inbound.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackContext, WorkspaceSession } from "./workspace-sessions.js";

const SHOW_MEMORY = "home_memory_show";
const FORGET_ME = "home_forget_me";
/** Slack's cap on a Home tab's blocks. */
const MAX_BLOCKS = 100;

const openedSchema = z.object({ user: z.string(), channel: z.string(), tab: z.string().optional() });
const pressSchema = z.object({
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }).nullish(),
  enterprise: z.object({ id: z.string() }).nullish(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

interface HomeDeps {
  logger: Logger;
  sessionOf(context: SlackContext): WorkspaceSession | undefined;
}

/**
 * The App Home tab (app_home_opened → views.publish): the person's usage today and what their
 * daily budget leaves, their memory controls (what the bot remembers of their DM with it, and
 * forget-me), and for admins a summary of the workspace's settings and tools. A press on a
 * control publishes the tab again with its result.
 */
export function registerAppHome(bolt: BoltApp, deps: HomeDeps): void {
  bolt.event("app_home_opened", async ({ event, body, context }) => {
    const opened = openedSchema.safeParse(event);
    const session = deps.sessionOf(context as SlackContext);
    if (!opened.success || opened.data.tab === "messages" || !session) return;
    await publish(session, opened.data.user, opened.data.channel, placeOf(body as SlackEnvelope));
  });
  const press =
    (command: string) =>
    async ({ ack, body, context }: { ack: () => Promise<void>; body: unknown; context: SlackContext }) => {
      await ack();
      const session = deps.sessionOf(context);
      const parsed = pressSchema.safeParse(body);
      const channel = parsed.success ? parsed.data.actions[0]?.value : undefined;
      if (!session || !parsed.success || !channel) return deps.logger.warn("a press on the App Home came in an unexpected shape");
      const place = placeOf({ enterprise_id: parsed.data.enterprise?.id, team_id: parsed.data.team?.id });
      const from = await commandFrom(session, parsed.data.user.id, channel, place);
      const parsedCommand = session.link.parseCommand(command);
      const result = parsedCommand ? await session.link.runCommand(parsedCommand, from) : { text: "That control is not available here." };
      await publish(session, parsed.data.user.id, channel, place, result.text);
    };
  bolt.action({ action_id: SHOW_MEMORY }, press("memory show"));
  bolt.action({ action_id: FORGET_ME }, press("memory forget-me"));
}

async function commandFrom(session: WorkspaceSession, userId: string, channel: string, place: SlackPlace) {
  const actor: Actor = await session.actorOf(userId, place);
  return { platform: PLATFORM, workspaceId: workspaceOf(place), channelId: channel, isDm: true, actor };
}

async function publish(session: WorkspaceSession, userId: string, channel: string, place: SlackPlace, notice?: string): Promise<void> {
  const summary = await session.link.home(await commandFrom(session, userId, channel, place));
  const header = (text: string): types.KnownBlock => ({ type: "header", text: { type: "plain_text", text } });
  const blocks: types.KnownBlock[] = [
    header("Your usage"),
    ...sectionBlocks(markdownToMrkdwn(summary.usage)),
    { type: "divider" },
    header("Your memory"),
    ...sectionBlocks("What the bot remembers of your messages with it, and forgetting you: your messages leave its search index and memory."),
    {
      type: "actions",
      elements: [
        { type: "button", action_id: SHOW_MEMORY, text: { type: "plain_text", text: "Show what it remembers" }, value: channel },
        {
          type: "button",
          action_id: FORGET_ME,
          style: "danger",
          text: { type: "plain_text", text: "Forget me" },
          value: channel,
          confirm: {
            title: { type: "plain_text", text: "Forget you?" },
            text: { type: "plain_text", text: "Your messages leave the bot's search index and memory in this workspace." },
            confirm: { type: "plain_text", text: "Forget me" },
            deny: { type: "plain_text", text: "Cancel" },
          },
        },
      ],
    },
    ...(notice ? sectionBlocks(markdownToMrkdwn(notice)) : []),
    ...(summary.admin ? [{ type: "divider" } as const, header("This workspace (admins)"), ...sectionBlocks(markdownToMrkdwn(summary.admin))] : []),
  ];
  await session.api.publishHome(userId, blocks.slice(0, MAX_BLOCKS));
}
