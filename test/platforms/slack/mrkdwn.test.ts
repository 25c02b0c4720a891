import { describe, expect, it } from "vitest";
import { slackTextToPlain } from "../../../src/platforms/slack/incoming-text.js";
import { defuseMassMentions, markdownToMrkdwn } from "../../../src/platforms/slack/mrkdwn.js";

describe("Markdown to Slack mrkdwn", () => {
  it("converts bold, italics, strikethrough and links", () => {
    expect(markdownToMrkdwn("**bold**, __also bold__, *italic*, _italic_, ~~gone~~")).toBe("*bold*, *also bold*, _italic_, _italic_, ~gone~");
    expect(markdownToMrkdwn("See [the docs](https://example.com/a?b=1&c=2) or <https://example.org>.")).toBe(
      "See <https://example.com/a?b=1&c=2|the docs> or <https://example.org>.",
    );
    expect(markdownToMrkdwn("***")).toBe("──────────");
  });

  it("turns headings into bold lines and lists into bullets, keeping numbers", () => {
    const markdown = ["## Results", "", "- first", "- **second**", "  - nested", "1. one", "2. two", "- [x] done"].join("\n");
    expect(markdownToMrkdwn(markdown)).toBe(["*Results*", "", "• first", "• *second*", "    ◦ nested", "1. one", "2. two", "• ☑ done"].join("\n"));
  });

  it("leaves code alone (no emphasis, language dropped) but escapes what Slack needs escaped", () => {
    const markdown = ["Use `a*b*c` here:", "```ts", "const x = a && b < c; // **not bold**", "```"].join("\n");
    expect(markdownToMrkdwn(markdown)).toBe(["Use `a*b*c` here:", "```", "const x = a &amp;&amp; b &lt; c; // **not bold**", "```"].join("\n"));
  });

  it("closes a code block the model left open", () => {
    expect(markdownToMrkdwn("```\nunfinished")).toBe("```\nunfinished\n```");
  });

  it("escapes &, < and > in prose, keeps quotes, and keeps arithmetic stars", () => {
    expect(markdownToMrkdwn("AT&T says 1 < 2 > 0")).toBe("AT&amp;T says 1 &lt; 2 &gt; 0");
    expect(markdownToMrkdwn("> quoted **text**")).toBe("> quoted *text*");
    expect(markdownToMrkdwn("2 * 3 * 4 = 24 and 2*3*4")).toBe("2 * 3 * 4 = 24 and 2*3*4");
  });

  it("renders a Markdown table as a code block", () => {
    const markdown = ["| a | b |", "|---|---|", "| 1 | 2 |", "", "after"].join("\n");
    expect(markdownToMrkdwn(markdown)).toBe(["```", "| a | b |", "|---|---|", "| 1 | 2 |", "```", "", "after"].join("\n"));
  });

  it("keeps user mentions and channel links but defuses every broadcast and user-group mention", () => {
    const text = markdownToMrkdwn("Hi <@U123> in <#C9|general>: <!channel> <!here|here> <!everyone> <!subteam^S1|@devs> <!subteam^S2> @here @channel");
    expect(text).toContain("<@U123>");
    expect(text).toContain("<#C9|general>");
    expect(text).not.toMatch(/<!(channel|here|everyone|subteam)/);
    expect(text).not.toMatch(/(^|[^\u200B])@(here|channel|everyone)\b/);
    expect(text).toBe("Hi <@U123> in <#C9|general>: @\u200Bchannel @\u200Bhere @\u200Beveryone @\u200Bdevs @\u200Bgroup @\u200Bhere @\u200Bchannel");
  });

  it("defuses broadcasts in a user's Slack-formatted text without touching their links", () => {
    expect(defuseMassMentions("<!here> see <https://x.test|x> <@U1> <!date^1392734382^{date}|Feb 18>")).toBe(
      "@\u200Bhere see <https://x.test|x> <@U1> <!date^1392734382^{date}|Feb 18>",
    );
  });
});

describe("Slack text to plain text for the model", () => {
  it("unescapes entities and makes links, channels and broadcasts readable, keeping user mentions", () => {
    expect(slackTextToPlain("is 3 &lt; 4 &amp;&amp; 5 &gt; 2? see <https://x.test/a?b=1&amp;c=2|the page> and <https://y.test>")).toBe(
      "is 3 < 4 && 5 > 2? see the page (https://x.test/a?b=1&c=2) and https://y.test",
    );
    expect(slackTextToPlain("ask <@U42> in <#C1|general> <!here>")).toBe("ask <@U42> in #general @here");
  });
});
