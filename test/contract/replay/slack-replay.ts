import type { FakeMessage } from "../../fakes/slack/messages.js";
import { captureLogs, type CapturedLogs } from "../../support/log-capture.js";
import { SlackHarness } from "../../support/slack-harness.js";
import { eventually } from "../drivers/driver.js";
import { echo, errorsSince, type Outcome, type ReplayFile } from "./outcome.js";

/** The bot user the payloads were adapted to (the MANIFEST's fake-slack world). */
const SLACK_BOT_USER = "UBOTSELF";
/** Who asks the last question, after the payloads, and where. */
const CHECKER = { user: "UCHECKER", channel: "CCHECK" };

/**
 * The world the MANIFEST describes for the Slack payloads: the real Bolt App in HTTP mode with
 * `/ask` renamed to `/test-feedback` (s24's recorded command), every request signed at send
 * time, the bot user UBOTSELF, and the payloads' people known to users.info.
 */
export class SlackReplay {
  private constructor(
    readonly h: SlackHarness,
    readonly logs: CapturedLogs,
  ) {}

  static async start(files: ReplayFile[]): Promise<SlackReplay> {
    const logs = captureLogs();
    const h = await SlackHarness.start({
      mode: "http",
      env: { SLACK_COMMAND_ASK: "/test-feedback" },
      fake: { botUserId: SLACK_BOT_USER },
      logger: logs.logger,
    });
    h.model.otherwise(echo);
    const people = new Set(files.map(({ payload }) => payload.event?.user ?? payload.user_id).filter((id): id is string => typeof id === "string"));
    for (const id of [...people, CHECKER.user]) if (id !== SLACK_BOT_USER) h.slack.addUser({ id, name: id.toLowerCase() });
    return new SlackReplay(h, logs);
  }

  /** Sends one payload as Slack would (a slash command as a form, with its response_url on the fake) and waits until the bot is done with it. */
  async replay({ name, payload }: ReplayFile): Promise<Outcome> {
    const { h, logs } = this;
    const before = { calls: h.model.chatRequests.length, posts: h.slack.messages.length, replies: h.slack.responses.length, logs: logs.lines.length };
    const response = payload.command ? await h.sender.command({ ...payload, response_url: h.slack.responseUrl() }) : await h.sender.event(payload);
    if (response.status !== 200) throw new Error(`${name}: the receiver answered ${response.status}`);
    // Bolt acknowledges an event before its listeners run, but hands it to them before the
    // acknowledgement reaches the sender; the turns it starts are then the intake's until idle.
    // A slash command first posts the question (a Web API call), so its user waits for an answer.
    if (payload.command) await eventually(() => this.answeredCommand(before), `${name}: an answer to the command`);
    await h.idle();
    const posts = h.slack.messages.slice(before.posts);
    return {
      modelCalls: h.model.chatRequests.length - before.calls,
      posts: posts.map((m) => `${this.place(m)}: ${m.text}`),
      privateReplies: h.slack.responses.slice(before.replies).map((r) => String(r.body.text)),
      errors: errorsSince(logs, before.logs),
      ...(response.body ? { response: response.body } : {}),
    };
  }

  /** Someone mentions the bot at the top of a channel; resolves with the answer once it is posted. */
  async ask(text: string): Promise<string> {
    const { h } = this;
    const ts = h.slack.nextTs();
    await h.mention({ ...CHECKER, ts, text });
    const [answer] = await eventually(() => h.slack.thread(CHECKER.channel, ts).length > 0 && h.slack.thread(CHECKER.channel, ts), "the answer");
    await h.idle();
    return `${this.place(answer!)}: ${answer!.text}`;
  }

  /** Every message the bot posted so far, as "where: text". */
  posts(): string[] {
    return this.h.slack.messages.map((m) => `${this.place(m)}: ${m.text}`);
  }

  close(): Promise<void> {
    return this.h.close();
  }

  /** A reply only its user sees, or an answer in the thread on a question the bot posted. */
  private answeredCommand(before: { posts: number; replies: number }): boolean {
    const { messages, responses } = this.h.slack;
    const posted = messages.slice(before.posts);
    return responses.length > before.replies || posted.some((m) => m.threadTs !== undefined && posted.some((q) => q.ts === m.threadTs));
  }

  /** "C1" at the top of a channel, "C1 › 1767…" in the thread on a user's message, "C1 › the bot's post" in one on the bot's own. */
  private place(message: FakeMessage): string {
    if (!message.threadTs) return message.channel;
    const own = this.h.slack.messages.some((m) => m.channel === message.channel && m.ts === message.threadTs);
    return `${message.channel} › ${own ? "the bot's post" : message.threadTs}`;
  }
}
