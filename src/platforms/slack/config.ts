import type { z } from "zod";
import { bool, idList, optionalText, optionalUrl, positiveInt, secretsKey, slashCommand, urlTemplate } from "../../config/fields.js";
import type { ConfigIssue } from "../../contract/platform.js";

/** Slack's environment variables. */
export const slackConfig = {
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  /**
   * Distribution mode ("Add to Slack" for any workspace): the app's OAuth credentials and a secret
   * that signs the install's state. All three, with SLACK_SIGNING_SECRET and SECRETS_KEY, instead of SLACK_BOT_TOKEN.
   */
  SLACK_CLIENT_ID: optionalText,
  SLACK_CLIENT_SECRET: optionalText,
  SLACK_STATE_SECRET: optionalText,
  /** Encrypts the installations' tokens at rest (AES-256-GCM): 32 bytes as 64 hex digits or base64. */
  SECRETS_KEY: secretsKey,
  /** During a key rotation: the key before SECRETS_KEY, which still decrypts until `npm run rotate-secrets` has re-encrypted. */
  SECRETS_KEY_PREVIOUS: secretsKey,
  SLACK_API_URL: optionalUrl,
  /** Where Slack's OpenID Connect pages and API are, for "Sign in with Slack" on the console (/openid/connect/authorize, /api/openid.connect.*). */
  SLACK_OAUTH_URL: urlTemplate("https://slack.com"),
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

const OAUTH_VARIABLES = ["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "SLACK_STATE_SECRET"] as const;

/** Distribution mode: the OAuth variables are set (check() makes sure all three are). */
export const isDistribution = (config: SlackConfig): boolean => OAUTH_VARIABLES.some((name) => config[name] !== undefined);

/** Distribution mode needs all three OAuth variables, the signing secret (HTTP events) and SECRETS_KEY. */
export function checkDistribution(config: SlackConfig): ConfigIssue[] {
  if (!isDistribution(config)) return [];
  const issues: ConfigIssue[] = OAUTH_VARIABLES.filter((name) => config[name] === undefined).map((variable) => ({
    variable,
    message: `set too: distribution mode (${OAUTH_VARIABLES.join(", ")}) needs all three`,
  }));
  if (config.SECRETS_KEY === undefined) {
    issues.push({
      variable: "SECRETS_KEY",
      message: "set in distribution mode, where installations' tokens are stored encrypted with it (32 bytes, e.g. `openssl rand -base64 32`)",
    });
  }
  if (config.SLACK_SIGNING_SECRET === undefined) {
    issues.push({ variable: "SLACK_SIGNING_SECRET", message: "set in distribution mode, whose events arrive over HTTP" });
  }
  if (config.SLACK_BOT_TOKEN !== undefined) {
    issues.push({ variable: "SLACK_BOT_TOKEN", message: "unset in distribution mode (each workspace's token comes from its installation)" });
  }
  if (config.SLACK_APP_TOKEN !== undefined) {
    issues.push({
      variable: "SLACK_APP_TOKEN",
      message: "unset in distribution mode (events arrive over HTTP at /slack/events; Socket Mode is for one workspace)",
    });
  }
  return issues;
}
