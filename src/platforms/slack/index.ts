import { webApi } from "@slack/bolt";
import type { Platform } from "../platform.js";
import { SlackAdapter } from "./slack-adapter.js";

export { SlackAdapter, type SlackAdapterOptions } from "./slack-adapter.js";

/** Starts when SLACK_BOT_TOKEN is set: Socket Mode with SLACK_APP_TOKEN, else HTTP with SLACK_SIGNING_SECRET. */
export const slackPlatform: Platform = {
  name: "slack",
  configured: (config) => config.SLACK_BOT_TOKEN !== undefined,
  create: (app, context) => new SlackAdapter(app, { sharedRoutes: context?.sharedRoutes }),
  httpPort: (config) => (config.SLACK_APP_TOKEN ? undefined : config.PORT),
  async checkCredentials(config) {
    const client = new webApi.WebClient(config.SLACK_BOT_TOKEN, {
      ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
      retryConfig: { retries: 0 },
    });
    const auth = await client.auth.test();
    return `the token belongs to ${auth.user ?? "a bot"} in ${auth.team ?? "a workspace"}`;
  },
};
