import type { Platform } from "../platform.js";
import { SlackAdapter } from "./slack-adapter.js";

export { SlackAdapter, type SlackAdapterOptions } from "./slack-adapter.js";

/** Starts when SLACK_BOT_TOKEN is set: Socket Mode with SLACK_APP_TOKEN, else HTTP with SLACK_SIGNING_SECRET. */
export const slackPlatform: Platform = {
  name: "slack",
  configured: (config) => config.SLACK_BOT_TOKEN !== undefined,
  create: (app) => new SlackAdapter(app),
};
