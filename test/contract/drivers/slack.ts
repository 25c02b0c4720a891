import type { FakeMessage, SlackCall } from "../../fakes/slack/fake-slack.js";
import { appMention, message } from "../../fakes/slack/payloads.js";
import { SlackHarness } from "../../support/slack-harness.js";
import { eventually, type DriverFactory, type PlatformDriver, type Seen, type Sent } from "./driver.js";

interface SlackSent extends Sent {
  channel: string;
  ts: string;
  /** The thread the message was posted in; a top-level message's answer goes in a thread on it. */
  threadTs?: string;
  /** The Events API body as Slack delivered it. */
  body: Record<string, unknown>;
}

const CHANNEL = "C1";
const MEMBER = "UMEMBER";
const ADMIN = "UADMIN";
/** Slack asks for at most 4,000 characters in one message. */
const SLACK_LIMIT = 4_000;

/** A tool step as the shared presenter writes one: a mark, then the tool's name as code. */
const STEP = /^(🔧|✅|⚠️) `/;

/**
 * The real Bolt App (HTTP receiver, signed requests) and Slack adapter against the fake Slack.
 * Max is a plain member, Ada a workspace admin (users.info says so); the bot's messages are read
 * back from the fake as users see them.
 */
export const slackDriver: DriverFactory = {
  name: "slack",
  can: { redelivery: true, edits: true, otherSenders: true, members: true },
  async start(env = {}) {
    const h = await SlackHarness.start({ env });
    h.slack.addUser({ id: MEMBER, name: "max" }).addUser({ id: ADMIN, name: "ada", isAdmin: true });
    const userMessages: SlackSent[] = [];
    const mention = (text: string) => `<@${h.slack.botUserId}> ${text}`;

    const send = async (event: Record<string, unknown>, text: string): Promise<SlackSent> => {
      const body = await h.deliver(event);
      const sent = { channel: String(event.channel), ts: String(event.ts), threadTs: event.thread_ts as string | undefined, body, text };
      userMessages.push(sent);
      return sent;
    };

    const driver: PlatformDriver = {
      model: h.model,
      messageLimit: SLACK_LIMIT,
      adminPermission: /workspace's admins and owners/,
      ask: (text) => send(appMention({ user: MEMBER, channel: CHANNEL, ts: h.slack.nextTs(), text: mention(text) }), text),
      followUp(first, text) {
        const { channel, ts } = first as SlackSent;
        return send(message({ user: MEMBER, channel, ts: h.slack.nextTs(), threadTs: ts, text }), text);
      },
      async deliverAgain(sent) {
        // Slack retries an event it thinks was not received: the same body, with the retry headers.
        const response = await h.sender.event((sent as SlackSent).body, { headers: { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" } });
        if (response.status !== 200) throw new Error(`the receiver answered ${response.status}`);
      },
      async edit(sent, text) {
        const { channel, ts } = sent as SlackSent;
        const edited = { user: MEMBER, ts: h.slack.nextTs() };
        // An edited mention comes back as app_mention (a new event id, an `edited` field) and as message_changed.
        await h.deliver({ ...appMention({ user: MEMBER, channel, ts, text: mention(text) }), edited });
        await h.deliver({
          type: "message",
          subtype: "message_changed",
          channel,
          channel_type: "channel",
          ts: h.slack.nextTs(),
          hidden: true,
          message: { type: "message", user: MEMBER, text: mention(text), ts, edited },
        });
      },
      async askAsOtherBot(text) {
        await h.deliver(appMention({ user: "UOTHERBOT", botId: "BOTHER", channel: CHANNEL, ts: h.slack.nextTs(), text: mention(text) }));
      },
      async systemMessage(first) {
        const { channel, ts } = first as SlackSent;
        await h.deliver(message({ user: MEMBER, channel, ts: h.slack.nextTs(), threadTs: ts, subtype: "pinned_item", text: `<@${MEMBER}> pinned a message to this channel.` }));
      },
      async command(text, as) {
        const [group, ...rest] = text.split(" ");
        const { responseUrl } = await h.command(`/${group}`, rest.join(" "), as === "admin" ? ADMIN : MEMBER, CHANNEL);
        const [reply] = await h.answersAt(responseUrl);
        return reply!;
      },
      async seen(sent) {
        const question = sent as SlackSent;
        await eventually(() => repliesTo(h.slack.messages, question, userMessages).some((m) => !STEP.test(m.text)), `the answer to "${sent.text}"`);
        await h.idle();
        const replies = repliesTo(h.slack.messages, question, userMessages).map((m) => m.text);
        return { steps: replies.filter((text) => STEP.test(text)), answer: replies.filter((text) => !STEP.test(text)) } satisfies Seen;
      },
      firstAnswerAt(sent) {
        const { channel, ts, threadTs } = sent as SlackSent;
        const thread = threadTs ?? ts;
        const shows = (call: SlackCall) =>
          call.response.ok === true &&
          call.params.channel === channel &&
          ((call.method === "chat.postMessage" && call.params.thread_ts === thread && !STEP.test(String(call.params.text))) ||
            ((call.method === "chat.startStream" || call.method === "chat.appendStream") && String(call.params.chunks ?? "").includes("markdown_text")));
        return h.slack.calls.find(shows)?.at;
      },
      shown: () => h.slack.messages.map((m) => m.text),
      close: () => h.close(),
    };
    return driver;
  },
};

/** The bot's messages in the question's thread after it, up to the next message a user wrote there (ts order is time order). */
function repliesTo(messages: FakeMessage[], question: SlackSent, userMessages: SlackSent[]): FakeMessage[] {
  const thread = question.threadTs ?? question.ts;
  const next = userMessages.find((m) => m.channel === question.channel && (m.threadTs ?? m.ts) === thread && m.ts > question.ts)?.ts;
  return messages.filter((m) => m.channel === question.channel && m.threadTs === thread && m.ts > question.ts && (next === undefined || m.ts < next));
}
