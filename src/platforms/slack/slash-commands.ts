import type { App as BoltApp, RespondFn, SlashCommand } from "@slack/bolt";
import type { Logger } from "../../log.js";
import { commandQuestion, type Actor, type IncomingCommand } from "../../contract/inbound.js";
import type { SlackConfig } from "./config.js";
import { PLATFORM, placeOf, slackOrder, workspaceOf } from "./inbound.js";
import { slackTextToPlain } from "./incoming-text.js";
import { defuseMassMentions, markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackContext, WorkspaceSession } from "./workspace-sessions.js";
import type { CommandGroup } from "../../contract/commands.js";

export interface CommandDeps {
  config: SlackConfig;
  logger: Logger;
  /** The workspace's session (its token, its link to the core); none without a bot token. */
  sessionOf(context: SlackContext): WorkspaceSession | undefined;
}

/** Why /ask could not post in a channel, for the person who asked. */
const POST_REFUSALS: Record<string, string> = {
  not_in_channel: "I'm not in this channel yet. Invite me with `/invite @me`, then ask again.",
  channel_not_found: "I can't see this channel. Invite me to it, then ask again.",
  is_archived: "This channel is archived, so I can't post in it.",
};

const NOT_INSTALLED = "I'm not installed in this workspace any more. Ask an admin to add me again.";

/** The command names (SLACK_COMMAND_*), by the catalog's group. */
export const commandNames = (config: SlackConfig): Record<CommandGroup, string> => ({
  tools: config.SLACK_COMMAND_TOOLS,
  memory: config.SLACK_COMMAND_MEMORY,
  settings: config.SLACK_COMMAND_SETTINGS,
  usage: config.SLACK_COMMAND_USAGE,
  schedule: config.SLACK_COMMAND_SCHEDULE,
});

/**
 * /ask, /tools, /memory, /settings and /usage. Each is acknowledged at once; /ask posts the question in
 * the channel and hands it to the core like a mention; the others are read through the core's
 * catalog and answered so that only their user sees it.
 */
export function registerSlashCommands(bolt: BoltApp, { config, logger, sessionOf }: CommandDeps): void {
  const reply = async (respond: RespondFn, text: string) => {
    try {
      await respond({ response_type: "ephemeral", text });
    } catch (error) {
      logger.warn({ err: error }, "could not answer a slash command through its response_url");
    }
  };
  const help = (link: WorkspaceSession["link"]) =>
    markdownToMrkdwn(`\`${config.SLACK_COMMAND_ASK} QUESTION\` asks me here; the steps and the answer follow in a thread.\n${link.help()}`);

  bolt.command(config.SLACK_COMMAND_ASK, async ({ command, ack, respond, context }) => {
    await ack();
    const session = sessionOf(context);
    if (!session) return reply(respond, NOT_INSTALLED);
    const { api, link, actorOf } = session;
    const question = command.text.trim();
    if (question === "") return reply(respond, help(link));
    const posted = await api.postMessage({ channel: command.channel_id, text: `<@${command.user_id}> asked: ${defuseMassMentions(question)}` });
    if (!posted.ok) return reply(respond, POST_REFUSALS[posted.error] ?? "Sorry, I couldn't post in this channel. The details are in the bot's log.");
    const from = commandPlace(command, await actorOf(command.user_id, placeOf(command)));
    void link.receive(
      commandQuestion(from, {
        messageId: posted.value.ts,
        eventId: command.trigger_id,
        // Its place is the posted question's.
        order: slackOrder(posted.value.ts),
        text: slackTextToPlain(question),
      }),
    );
  });

  for (const [group, name] of Object.entries(commandNames(config)) as [CommandGroup, string][]) {
    bolt.command(
      name,
      async ({ command, ack, respond, context }: { command: SlashCommand; ack: () => Promise<void>; respond: RespondFn; context: SlackContext }) => {
        await ack();
        const session = sessionOf(context);
        if (!session) return reply(respond, NOT_INSTALLED);
        const { link, actorOf } = session;
        const parsed = link.parseCommand(`${group} ${command.text}`);
        if (!parsed || parsed.kind === "help") return reply(respond, help(link));
        const result = await link.runCommand(parsed, commandPlace(command, await actorOf(command.user_id, placeOf(command))));
        if (result.denied) logger.info({ user: command.user_id, command: parsed.kind }, "refused a settings command");
        await reply(respond, markdownToMrkdwn(result.text));
      },
    );
  }
}

function commandPlace(command: SlashCommand, actor: Actor): IncomingCommand {
  return {
    platform: PLATFORM,
    workspaceId: workspaceOf(placeOf(command)),
    channelId: command.channel_id,
    isDm: command.channel_name === "directmessage" || command.channel_id.startsWith("D"),
    actor,
  };
}
