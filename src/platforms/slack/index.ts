import { definePlatform } from "../../contract/platform.js";
import { checkDistribution, isDistribution, slackConfig } from "./config.js";

/**
 * Starts when SLACK_BOT_TOKEN is set (one workspace: Socket Mode with SLACK_APP_TOKEN, else HTTP
 * with SLACK_SIGNING_SECRET), or in distribution mode (SLACK_CLIENT_ID and the rest: HTTP with
 * OAuth, any number of workspaces). Bolt is imported only then.
 */
export const slackPlatform = definePlatform({
  name: "slack",
  config: slackConfig,
  configured: (config) => config.SLACK_BOT_TOKEN !== undefined || isDistribution(config),
  check: checkDistribution,
  httpPort: (config) => (config.SLACK_APP_TOKEN ? undefined : config.PORT),
  load: () => import("./slack-adapter.js"),
});
