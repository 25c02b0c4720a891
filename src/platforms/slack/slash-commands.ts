import type { App as BoltApp, RespondFn, SlashCommand } from "@slack/bolt";
import type { App } from "../../app.js";
import { parseCommandText } from "../../runner/commands.js";
import { PLATFORM } from "./bot-threads.js";
import { slackTextToPlain } from "./incoming-text.js";
import { defuseMassMentions, markdownToMrkdwn } from "./mrkdwn.js";
import type { SlackApi } from "./slack-api.js";
import { workspaceOf } from "./slack-events.js";
import type { SlackUsers } from "./slack-users.js";
import type { TurnStarter } from "./turn-starter.js";

export interface CommandDeps {
  app: App;
  api: SlackApi;
  users: SlackUsers;
  starter: TurnStarter;
}

const ADMIN_NOTE = "_Here, admins are the workspace's admins and owners, and anyone listed in SLACK_ADMIN_USER_IDS._";

/** Why /ask could not post in a channel, for the person who asked. */
const POST_REFUSALS: Record<string, string> = {
  not_in_channel: "I'm not in this channel yet. Invite me with `/invite @me`, then ask again.",
  channel_not_found: "I can't see this channel. Invite me to it, then ask again.",
  is_archived: "This channel is archived, so I can't post in it.",
};

/**
 * /ask, /tools, /memory and /settings (names from SLACK_COMMAND_*). Each is acknowledged at once; settings
 * answers are ephemeral; permissions are BotCommands' to check, with admin status from Slack.
 */
export function registerSlashCommands(bolt: BoltApp, deps: CommandDeps): void {
  const { app, api, users, starter } = deps;
  const { SLACK_COMMAND_ASK: ask, SLACK_COMMAND_TOOLS: tools, SLACK_COMMAND_MEMORY: memory, SLACK_COMMAND_SETTINGS: settingsCommand } =
    app.config;
  const logger = app.logger.child({ platform: PLATFORM });
  const usage = [
    `\`${ask} QUESTION\` asks me in this channel; the steps and the answer follow in a thread.`,
    `\`${tools}\` lists the tools and whether they are on here; \`${tools} enable NAME\` / \`${tools} disable NAME\` switch one (admins).`,
    `\`${memory} show\` shows what I remember of this channel; \`${memory} clear\` forgets it (admins).`,
    `\`${settingsCommand}\` shows this workspace's settings; admins change them with \`${settingsCommand} channels add|remove|all #channel\`, ` +
      `\`${settingsCommand} ignore-user|unignore-user @user\`, \`${settingsCommand} memory N|default\`, \`${settingsCommand} prompt TEXT|clear\`.`,
  ].join("\n");

  const reply = async (respond: RespondFn, text: string) => {
    try {
      await respond({ response_type: "ephemeral", text });
    } catch (error) {
      logger.warn({ err: error }, "could not answer a slash command through its response_url");
    }
  };

  bolt.command(ask, async ({ command, ack, respond }) => {
    await ack();
    const question = command.text.trim();
    if (question === "") return reply(respond, `Usage: ${usage.split("\n")[0]}`);
    const posted = await api.postMessage({
      channel: command.channel_id,
      text: `<@${command.user_id}> asked: ${defuseMassMentions(question)}`,
    });
    if (!posted.ok) {
      return reply(respond, POST_REFUSALS[posted.error] ?? "Sorry, I couldn't post in this channel. The details are in the bot's log.");
    }
    await starter.start({
      conversation: { platform: PLATFORM, workspaceId: workspaceOf(command), channelId: command.channel_id },
      userId: command.user_id,
      text: slackTextToPlain(question),
      channel: command.channel_id,
      messageTs: posted.value.ts,
      threadTs: posted.value.ts,
      answerInThread: true,
      remember: { threadTs: posted.value.ts, scope: "channel" },
    });
  });

  const settings = (group: "tools" | "memory" | "settings") =>
    async ({ command, ack, respond }: { command: SlashCommand; ack: () => Promise<void>; respond: RespondFn }) => {
      await ack();
      const parsed = parseCommandText(`${group} ${command.text}`);
      if (!parsed || parsed.kind === "help") return reply(respond, usage);
      const person = await users.lookup(command.user_id);
      const conversation = { platform: PLATFORM, workspaceId: workspaceOf(command), channelId: command.channel_id };
      const result = app.commands.execute(parsed, conversation, { userId: command.user_id, isAdmin: person.isAdmin });
      if (result.denied) logger.info({ user: command.user_id, command: parsed.kind }, "refused a settings command to a non-admin");
      const text = markdownToMrkdwn(result.text);
      await reply(respond, result.denied ? `${text}\n${ADMIN_NOTE}` : text);
    };
  bolt.command(tools, settings("tools"));
  bolt.command(memory, settings("memory"));
  bolt.command(settingsCommand, settings("settings"));
}
