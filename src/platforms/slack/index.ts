import { definePlatform } from "../../contract/platform.js";
import { slackConfig } from "./config.js";

/** Starts when SLACK_BOT_TOKEN is set: Socket Mode with SLACK_APP_TOKEN, else HTTP with SLACK_SIGNING_SECRET. Bolt is imported only then. */
export const slackPlatform = definePlatform({
  name: "slack",
  config: slackConfig,
  configured: (config) => config.SLACK_BOT_TOKEN !== undefined,
  httpPort: (config) => (config.SLACK_APP_TOKEN ? undefined : config.PORT),
  load: () => import("./slack-adapter.js"),
});
