import type { z } from "zod";
import { bool, idList, optionalText, optionalUrl, positiveInt, slashCommand, urlTemplate } from "../../config/fields.js";

/** Slack's environment variables. */
export const slackConfig = {
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_API_URL: optionalUrl,
  /** Slack's file host: files are downloaded (with the bot token) from under this address only. */
  SLACK_FILES_URL: urlTemplate("https://files.slack.com/"),
  SLACK_ALLOW_DMS: bool(true),
  SLACK_BROADCAST_ANSWER: bool(false),
  SLACK_ADMIN_USER_IDS: idList,
  SLACK_COMMAND_ASK: slashCommand("/ask"),
  SLACK_COMMAND_TOOLS: slashCommand("/tools"),
  SLACK_COMMAND_MEMORY: slashCommand("/memory"),
  SLACK_COMMAND_SETTINGS: slashCommand("/settings"),
  SLACK_COMMAND_USAGE: slashCommand("/usage"),
  SLACK_COMMAND_SCHEDULE: slashCommand("/schedule"),
  /** HTTP mode: the port of Bolt's receiver. */
  PORT: positiveInt(3000),
};

export type SlackConfig = z.output<z.ZodObject<typeof slackConfig>>;
