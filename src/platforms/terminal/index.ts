import { definePlatform } from "../../contract/platform.js";

/** The terminal: a conversation over stdin and stdout, started when no chat platform is configured. */
export const terminalPlatform = definePlatform({
  name: "terminal",
  config: {},
  configured: () => true,
  fallback: true,
  load: () => import("./terminal-adapter.js"),
});
