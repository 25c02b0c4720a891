import type { SlackCall } from "../../fakes/slack/fake-slack.js";
import type { FakeMessage } from "../../fakes/slack/messages.js";
import { appMention, message } from "../../fakes/slack/payloads.js";
import { SlackHarness } from "../../support/slack-harness.js";
import { fileAnswer } from "../../fakes/file-host.js";
import { eventually, type DriverFactory, type PlatformDriver, type Presser, type Seen, type Sent, type ShownApproval } from "./driver.js";

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
const STRANGER = "USTRANGER";
const USERS: Record<Presser, string> = { asker: MEMBER, admin: ADMIN, stranger: STRANGER };
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
  can: { redelivery: true, edits: true, otherSenders: true, members: true, restarts: true },
  async start(env = {}, options = {}) {
    const h = await SlackHarness.start({ env, app: options });
    h.slack.addUser({ id: MEMBER, name: "max" }).addUser({ id: ADMIN, name: "ada", isAdmin: true }).addUser({ id: STRANGER, name: "eve" });
    const userMessages: SlackSent[] = [];
    const approvalsSeen = new Set<string>();
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
      askWithFiles(text, files) {
        const shared = files.map((file) => h.slack.file(file.name, fileAnswer.bytes(file.bytes, file.contentType), { mimetype: file.contentType }));
        return send({ ...appMention({ user: MEMBER, channel: CHANNEL, ts: h.slack.nextTs(), text: mention(text) }), files: shared }, text);
      },
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
        await h.deliver(
          message({
            user: MEMBER,
            channel,
            ts: h.slack.nextTs(),
            threadTs: ts,
            subtype: "pinned_item",
            text: `<@${MEMBER}> pinned a message to this channel.`,
          }),
        );
      },
      async command(text, as) {
        const [group, ...rest] = text.split(" ");
        const { responseUrl } = await h.command(`/${group}`, rest.join(" "), as === "admin" ? ADMIN : MEMBER, CHANNEL);
        const [reply] = await h.answersAt(responseUrl);
        return reply!;
      },
      async seen(sent) {
        const question = sent as SlackSent;
        const shown = () => repliesTo(h.slack.messages, question, userMessages).filter((m) => !isApproval(m));
        await eventually(() => shown().some((m) => !STEP.test(m.text)), `the answer to "${sent.text}"`);
        await h.idle();
        const replies = shown().map((m) => m.text);
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
      async approval() {
        const found = await eventually(() => h.slack.messages.find((m) => isApproval(m) && !approvalsSeen.has(m.ts)), "a request for approval with buttons");
        approvalsSeen.add(found.ts);
        return slackApproval(h, found);
      },
      restart: () => h.restart(),
      app: () => h.app,
      shown: () => h.slack.messages.map((m) => m.text),
      shows: (markdown) => markdown,
      close: () => h.close(),
    };
    return driver;
  },
};

/** A request for approval: posted with Block Kit buttons (an update later replaces them with its outcome). */
const isApproval = (message: FakeMessage) => message.postedBlocks.some((block) => block.type === "actions");

function slackApproval(h: SlackHarness, shown: FakeMessage): ShownApproval {
  return {
    text: () => shown.text,
    hasControls: () => shown.blocks.some((block) => block.type === "actions"),
    async press(decision, who) {
      const user = USERS[who];
      const ephemerals = h.slack.ephemerals.filter((e) => e.user === user).length;
      const versions = shown.versions.length;
      await h.press(user, shown, decision === "approve" ? "approval_approve" : "approval_deny");
      // Bolt acknowledges at once; the answer follows: an update of the request, or a message for the presser alone.
      await eventually(
        () => shown.versions.length > versions || h.slack.ephemerals.filter((e) => e.user === user).length > ephemerals,
        `the answer to ${who}'s press`,
      );
      return h.slack.ephemerals
        .filter((e) => e.user === user)
        .slice(ephemerals)
        .map((e) => e.text)
        .join("\n");
    },
  };
}

/** The bot's messages in the question's thread after it, up to the next message a user wrote there (ts order is time order). */
function repliesTo(messages: FakeMessage[], question: SlackSent, userMessages: SlackSent[]): FakeMessage[] {
  const thread = question.threadTs ?? question.ts;
  const next = userMessages.find((m) => m.channel === question.channel && (m.threadTs ?? m.ts) === thread && m.ts > question.ts)?.ts;
  return messages.filter((m) => m.channel === question.channel && m.threadTs === thread && m.ts > question.ts && (next === undefined || m.ts < next));
}
