import { describe, expect, it } from "vitest";
import { DiscordReplay } from "./replay/discord-replay.js";
import { replayFiles, type Outcome } from "./replay/outcome.js";
import { SlackReplay } from "./replay/slack-replay.js";

/**
 * Real Discord gateway and Slack Events API payloads (test/fixtures/replay-payloads, see its
 * MANIFEST.md), replayed in the MANIFEST's order and world through the real discord.js Client and
 * the real Bolt App. Each must give exactly the behaviour of the MANIFEST's "expected" column:
 * one answer to a genuine mention, where it was asked; nothing for the rest (no model call, no
 * post); no error logged; no crash (the bot still answers afterwards).
 */

const nothing: Outcome = { modelCalls: 0, posts: [], privateReplies: [], errors: [] };
/** One turn, answered where it was asked (the fake model answers "re: <the question as the model got it>"). */
const answered = (place: string, question: string): Outcome => ({ ...nothing, modelCalls: 1, posts: [`${place}: re: ${question}`] });

const S01_THREAD = "C00FAKECHAN1 › 1767376988.871629";

const slackExpected: Record<string, Outcome> = {
  "s01-app-mention": answered(S01_THREAD, "Hey"),
  "s02-thread-follow-up": answered(S01_THREAD, "DM me"),
  "s03-thread-broadcast": answered(S01_THREAD, "Hi there!"),
  "s04-message-changed": nothing,
  "s05-message-changed-in-bot-thread": nothing,
  "s06-message-deleted": nothing,
  "s07-dm": answered("D0A5319PS02", "Hey!"),
  "s08-dm-with-blocks": answered("D0ACX51K95H", "hello hello"),
  // One channel mention, delivered as `message` and as `app_mention`: one turn.
  "s09a-mention-as-message-event": answered("C00FAKECHAN1 › 1773327463.619929", "Can you see the name of this channel: #C00FAKECHAN2?"),
  "s09b-mention-as-app-mention-event": nothing,
  // The recorded file is on the real files.slack.com, not on the host the test configures: named,
  // never fetched, and the question is answered.
  "s10-app-mention-with-file": answered(
    "C00FAKECHAN3 › 1770241970.822989",
    "[AI] I don't really understand this explanation.\n[image: image.png, 209 KB — unavailable: its address is not on the platform's file host]",
  ),
  "s11-foreign-thread-reply": nothing,
  "s12-enterprise-grid-mention": answered("C0A9D9RTBMF › 1770676954.663639", "testing"),
  "s13-shared-channel-mention": answered("C111 › 1605835902.008000", "hey"),
  "s14-bot-message-in-bot-thread": nothing,
  "s15-bot-message-response-url": nothing,
  "s16-app-mention-by-bot": nothing,
  "s17-channel-join-of-bot": nothing,
  "s18-me-message": nothing,
  "s19-file-share": nothing,
  "s20-member-joined-channel": nothing,
  "s21-reaction-added": nothing,
  "s22a-mention-before-edit": answered("C00FAKECHAN4 › 1622877872.008800", "edited message"),
  // Slack re-sends an edited mention with a new event id: no second turn.
  "s22b-mention-edited": nothing,
  "s23-url-verification": { ...nothing, response: JSON.stringify({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" }) },
  // The renamed /ask posts the question in the channel, then answers in its thread.
  "s24-slash-command": {
    ...nothing,
    modelCalls: 1,
    posts: ["C00FAKECHAN3: <@U00FAKEUSER2> asked: some arguments here", "C00FAKECHAN3 › the bot's post: re: some arguments here"],
  },
  "s25-message-changed-tombstone-dm": nothing,
};

const discordExpected: Record<string, Outcome> = {
  "d01-mention": answered("#general ↩ 1457536551830421524", "Hey"),
  "d02-mention-lean-member": answered("#second ↩ 1473118766652199044", "Test"),
  // The bot's managed role, mentioned: the bot is meant.
  "d03-role-mention": answered("#general ↩ 1457536600000000001", "AI Still there?"),
  "d04-thread-create": nothing,
  "d05-bot-own-embed-in-thread": nothing,
  // The thread on d01 was opened by the recorded bot, not by this one: talk there is not for it.
  "d06-thread-message-no-mention": nothing,
  "d07-thread-message-dm-me": nothing,
  // A button the bot never posted: not answered (Discord tells the clicker the interaction failed).
  "d08-button-click": nothing,
  // A reply to the bot pings it: a mention; the other mentions are made readable. The replied-to
  // message (sent along in the payload) comes first; its file is on the real CDN, not the test's.
  "d09-reply-ping-to-bot": answered(
    "#third ↩ 1211326265043320872",
    [
      "[The message this replies to, from you (this bot):]",
      "was ist das?",
      "[image: image.png, 20 KB — unavailable: its address is not on the platform's file host]",
      "",
      "@NoRisk @Tom 💀",
    ].join("\n"),
  ),
  // A sticker alone is a mention with nothing to ask: the short hint, no turn.
  "d10-wave-sticker-reply-to-bot-join": {
    ...nothing,
    posts: ["#general ↩ 900000000000000089: Hi! Ask me something after the mention, for example: what is the hypotenuse of a 3 by 4 triangle?"],
  },
  "d11-member-join-system-message": nothing,
  "d12-plain-channel-message": nothing,
  "d13-message-update-with-thread": nothing,
  "d14-message-update-of-d01": nothing,
  "d15-message-delete": nothing,
  // A command this bot does not have (left registered by an earlier version): a reply only its user sees.
  "d16-slash-command-unknown-name": { ...nothing, privateReplies: ["I don't know that command. Try `/tools list` or `/memory show`."] },
  "d17-webhook-message": nothing,
  "d18-dm": answered("DM ↩ 1457536593454825999", "Hey"),
};

describe("replayed platform payloads", () => {
  it("gives each recorded Slack payload, through the real Bolt App over signed HTTP, the behaviour the MANIFEST expects", async () => {
    const files = replayFiles("slack");
    expect(files.map((file) => file.name)).toEqual(Object.keys(slackExpected));
    const replay = await SlackReplay.start(files);
    try {
      const outcomes: Record<string, Outcome> = {};
      for (const file of files) outcomes[file.name] = await replay.replay(file);
      const alive = await replay.ask("still there?");

      expect(outcomes).toEqual(slackExpected);
      expect(alive).toMatch(/^CCHECK › [\d.]+: re: still there\?$/);
      // Nothing was posted that no payload accounts for.
      expect(replay.posts()).toEqual([...Object.values(outcomes).flatMap((outcome) => outcome.posts), alive]);
    } finally {
      await replay.close();
    }
  });

  it("gives each recorded Discord payload, through the real discord.js Client, the behaviour the MANIFEST expects", async () => {
    const files = replayFiles("discord");
    expect(files.map((file) => file.name)).toEqual(Object.keys(discordExpected));
    const byName = Object.fromEntries(files.map((file) => [file.name, file.payload]));
    const replay = await DiscordReplay.start();
    try {
      const outcomes: Record<string, Outcome> = {};
      for (const file of files) {
        // d08 clicks a button on d05's message, in the thread d04 created.
        const outcome = await replay.replay(file, { message: byName["d05-bot-own-embed-in-thread"], thread: byName["d04-thread-create"] });
        outcomes[file.name] = { ...outcome, privateReplies: [] };
      }
      const alive = await replay.ask("still there?");
      // Interaction replies go out beside the gateway's order; by now they have landed.
      for (const [name, replies] of Object.entries(replay.privateReplies())) outcomes[name]!.privateReplies = replies;

      expect(outcomes).toEqual(discordExpected);
      expect(alive).toMatch(/^#general ↩ \d+: re: still there\?$/);
      expect(replay.posts()).toEqual([...Object.values(outcomes).flatMap((outcome) => outcome.posts), alive]);
    } finally {
      await replay.close();
    }
  });
});
