import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../../fakes/fake-openai.js";
import { fileAnswer, PNG_BYTES } from "../../fakes/file-host.js";
import { appMention, message } from "../../fakes/slack/payloads.js";
import { captureLogs, type CapturedLogs } from "../../support/log-capture.js";
import { SlackHarness, type SlackHarnessOptions } from "../../support/slack-harness.js";

/** Recorded events (test/fixtures/replay-payloads): a mention with an image (s10), a file_share message (s19). */
const recorded = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/replay-payloads/slack/${name}.json`, import.meta.url), "utf8")).event;

describe("Slack: what people share with a question", () => {
  let h: SlackHarness;
  let logs: CapturedLogs;
  afterEach(() => h?.close());

  const start = async (options: SlackHarnessOptions = {}) => {
    logs = captureLogs();
    h = await SlackHarness.start({ ...options, logger: logs.logger });
    h.slack.addUser({ id: "U1", name: "alice" });
    h.model.otherwise(reply.text("Seen."));
  };

  /** s10's event, mentioning this bot, with its one file served from the fake's files host. */
  const s10With = (file: Record<string, unknown>, ts = h.slack.nextTs()) => {
    const event = recorded("s10-app-mention-with-file");
    return {
      ...event,
      text: `<@${h.slack.botUserId}> ${event.text.replace(/^<@\w+> /, "")}`,
      user: "U1",
      channel: "C1",
      ts,
      event_ts: ts,
      files: [{ ...event.files[0], ...file }],
    };
  };

  it("shows a mention's image (s10's recorded shape) to the model, fetched with the bot token", async () => {
    await start();
    const file = h.slack.file("image.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { mimetype: "image/png" });

    await h.deliver(s10With(file));
    await h.idle();

    expect(h.model.question(0)).toEqual({
      text: "[AI] I don't really understand this explanation.\n[image: image.png, 70 bytes — attached as image 1]",
      images: [{ mediaType: "image/png", bytes: PNG_BYTES }],
    });
    expect(h.slack.filesHost.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${h.slack.botToken}`]);
  });

  it("inlines a log file shared in the bot's thread (s19's recorded file_share shape), without a mention", async () => {
    await start();
    const ts = h.slack.nextTs();
    await h.mention({ user: "U1", channel: "C1", ts, text: "the nightly build is red" });
    await h.idle();
    const log = h.slack.file("build.log", fileAnswer.text("step 3 FAILED: exit code 2\n"), { mimetype: "text/plain" });
    const event = recorded("s19-file-share");
    const followUpTs = h.slack.nextTs();

    await h.deliver({
      ...event,
      text: "here is the log",
      user: "U1",
      channel: "C1",
      ts: followUpTs,
      event_ts: followUpTs,
      thread_ts: ts,
      files: [{ ...event.files[0], ...log }],
    });
    await h.idle();

    expect(h.model.question(1).text).toBe("here is the log\n[text file: build.log, text/plain, 27 bytes]\nstep 3 FAILED: exit code 2\n[end of build.log]");
  });

  it("reads a message shared into a direct message, with its file", async () => {
    await start();
    const notes = h.slack.file("notes.md", fileAnswer.text("- ship on Monday"), { mimetype: "text/markdown" });
    const shared = {
      is_share: true,
      is_msg_unfurl: true,
      author_id: "U2",
      author_name: "Bea",
      channel_id: "C9",
      ts: "1700000000.000100",
      fallback: "[November 14th] Bea: Can we still ship on Monday?",
      text: "Can we still ship on &lt;Monday&gt;?",
      files: [notes],
    };

    await h.deliver({
      ...message({ user: "U1", channel: "D1", ts: h.slack.nextTs(), text: "is this still true?", channelType: "im" }),
      attachments: [shared, { title: "a link preview", text: "not a message" }],
    });
    await h.idle();

    expect(h.model.question(0).text).toBe(
      [
        "[A forwarded message, from Bea:]",
        "Can we still ship on <Monday>?",
        "[text file: notes.md, text/markdown, 16 bytes]",
        "- ship on Monday",
        "[end of notes.md]",
        "",
        "is this still true?",
      ].join("\n"),
    );
  });

  it("without the files:read scope, says so in the log and answers from the text alone, the token in no log line", async () => {
    await start({ fake: { filesScope: false } });
    const file = h.slack.file("image.png", fileAnswer.bytes(PNG_BYTES, "image/png"), { mimetype: "image/png" });
    const ts = h.slack.nextTs();

    await h.deliver(s10With(file, ts));
    await h.idle();

    expect(h.model.question(0)).toEqual({
      text: "[AI] I don't really understand this explanation.\n[image: image.png, 70 bytes — unavailable: Slack answered with its sign-in page instead of handing the file over (the app may lack the files:read scope)]",
      images: [],
    });
    expect(h.slack.thread("C1", ts).map((m) => m.text)).toEqual(["Seen."]);
    const warning = logs.lines.find((line) => line.level === 40 && /files:read/.test(line.msg));
    expect(warning?.msg).toMatch(/give the app the files:read scope .* and reinstall it/);
    expect(logs.text()).not.toContain(h.slack.botToken);
  });

  it("never fetches an address pasted in the text, even one on its files host", async () => {
    await start();
    const pasted = h.slack.filesHost.serve("secret.png", fileAnswer.bytes(PNG_BYTES, "image/png"));

    await h.deliver(appMention({ user: "U1", channel: "C1", ts: h.slack.nextTs(), text: `<@${h.slack.botUserId}> what is in <${pasted}>?` }));
    await h.idle();

    expect(h.model.question(0)).toEqual({ text: `what is in ${pasted}?`, images: [] });
    expect(h.slack.filesHost.requests).toEqual([]);
  });
});
