import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { BOT_SCOPES } from "../../../src/platforms/slack/scopes.js";

const manifest = readFileSync(new URL("../../../src/platforms/slack/manifest.yaml", import.meta.url), "utf8");
const listUnder = (key: string) => {
  const block = new RegExp(`^(\\s*)${key}:\\n((?:\\1\\s+- .*\\n)+)`, "m").exec(manifest);
  return block
    ? block[2]!
        .split("\n")
        .map((line) => line.replace(/^\s*- /, "").trim())
        .filter(Boolean)
    : [];
};

describe("the Slack app manifest", () => {
  it("asks for exactly the bot scopes the adapter uses (and the Add to Slack button requests)", () => {
    expect(listUnder("bot").sort()).toEqual([...BOT_SCOPES].sort());
  });

  it("turns on Slack's assistant feature, for the thread status in DMs", () => {
    expect(manifest).toMatch(/^ {2}assistant_view:\n {4}assistant_description: \S/m);
  });

  it("subscribes to mentions, channel, private channel and DM messages, App Home and assistant threads, over Socket Mode", () => {
    expect(listUnder("bot_events")).toEqual([
      "app_mention",
      "message.channels",
      "message.groups",
      "message.im",
      "app_home_opened",
      "assistant_thread_started",
      "assistant_thread_context_changed",
    ]);
    expect(manifest).toMatch(/^\s*home_tab_enabled: true$/m);
    expect(manifest).toMatch(/^\s*socket_mode_enabled: true$/m);
  });

  it("declares the slash commands under their default names", () => {
    const config = loadConfig({});
    const commands = [...manifest.matchAll(/- command: (\S+)/g)].map((match) => match[1]);
    expect(commands).toEqual([
      config.SLACK_COMMAND_ASK,
      config.SLACK_COMMAND_TOOLS,
      config.SLACK_COMMAND_MEMORY,
      config.SLACK_COMMAND_SETTINGS,
      config.SLACK_COMMAND_USAGE,
      config.SLACK_COMMAND_SCHEDULE,
    ]);
  });

  it("turns interactivity on, so that Approve and Deny presses reach the app", () => {
    expect(manifest).toMatch(/^\s*interactivity:\n\s*is_enabled: true$/m);
  });
});
