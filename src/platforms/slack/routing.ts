import { z } from "zod";
import type { ConversationRef } from "../../store/types.js";
import { PLATFORM, type BotThreads, type ThreadScope } from "./bot-threads.js";
import { slackTextToPlain } from "./incoming-text.js";

/** The fields of an `app_mention` or `message` event the adapter reads. */
const slackMessageSchema = z.object({
  type: z.string(),
  subtype: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().default(""),
  ts: z.string(),
  thread_ts: z.string().optional(),
  channel: z.string(),
  channel_type: z.string().optional(),
});

/** Subtypes that are still a person writing (not an edit, deletion, join or bot message). */
const PERSON_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

/** One turn to start, with where its messages go. */
export interface TurnPlan {
  conversation: ConversationRef;
  userId: string;
  /** The message for the model: the bot's mention removed, Slack's markup made plain. */
  text: string;
  channel: string;
  /** The user's message: the thinking reaction goes on it. */
  messageTs: string;
  /** The thread the steps (and usually the answer) are posted in. */
  threadTs: string;
  /** False for a top-level DM, whose answer reads better outside the thread. */
  answerInThread: boolean;
  /** The thread to remember as the bot's, so follow-ups without a mention are answered. */
  remember?: { threadTs: string; scope: ThreadScope };
}

export type Routing = { action: "turn"; plan: TurnPlan } | { action: "ignore"; reason: string };

export interface RoutingContext {
  workspaceId: string;
  botUserId?: string;
  allowDms: boolean;
  threads: BotThreads;
}

/** Decides whether a Slack message event starts a turn, and in which conversation. */
export function routeEvent(raw: unknown, context: RoutingContext): Routing {
  const parsed = slackMessageSchema.safeParse(raw);
  if (!parsed.success) return ignore("an event without the fields of a message");
  const event = parsed.data;
  if (event.bot_id || !event.user) return ignore("a message from a bot");
  if (context.botUserId && event.user === context.botUserId) return ignore("the bot's own message");
  if (event.subtype && !PERSON_SUBTYPES.has(event.subtype)) return ignore(`a ${event.subtype} message`);

  const text = slackTextToPlain(stripMention(event.text, context.botUserId));
  const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
  const base = { userId: event.user, text, channel: event.channel, messageTs: event.ts };
  const channelConversation: ConversationRef = { platform: PLATFORM, workspaceId: context.workspaceId, channelId: event.channel };
  const threadConversation = (threadTs: string): ConversationRef => ({ ...channelConversation, threadId: threadTs });

  if (event.type === "app_mention") {
    if (!inThread) {
      return turn({ ...base, conversation: channelConversation, threadTs: event.ts, answerInThread: true, remember: { threadTs: event.ts, scope: "channel" } });
    }
    const threadTs = event.thread_ts!;
    const scope = context.threads.scopeOf(event.channel, threadTs) ?? "thread";
    const conversation = scope === "channel" ? channelConversation : threadConversation(threadTs);
    return turn({ ...base, conversation, threadTs, answerInThread: true, remember: { threadTs, scope } });
  }

  if (event.type !== "message") return ignore(`a ${event.type} event`);

  if (event.channel_type === "im") {
    if (!context.allowDms) return ignore("a direct message, and SLACK_ALLOW_DMS is off");
    return turn({ ...base, conversation: channelConversation, threadTs: event.thread_ts ?? event.ts, answerInThread: inThread });
  }
  if (context.botUserId && mentions(event.text, context.botUserId)) return ignore("a mention (answered through app_mention)");
  if (!inThread) return ignore("a channel message outside the bot's threads");
  const threadTs = event.thread_ts!;
  const scope = context.threads.scopeOf(event.channel, threadTs);
  if (!scope) return ignore("a thread the bot is not part of");
  const conversation = scope === "channel" ? channelConversation : threadConversation(threadTs);
  return turn({ ...base, conversation, threadTs, answerInThread: true });
}

/** Removes mentions of the bot; without its id, a leading user mention. */
export function stripMention(text: string, botUserId: string | undefined): string {
  const pattern = botUserId ? new RegExp(`<@${botUserId}(\\|[^>]*)?>`, "g") : /^\s*<@[UW][A-Z0-9]+(\|[^>]*)?>/;
  return text.replace(pattern, " ").replace(/[ \t]{2,}/g, " ").trim();
}

function mentions(text: string, botUserId: string): boolean {
  return text.includes(`<@${botUserId}>`) || text.includes(`<@${botUserId}|`);
}

const turn = (plan: TurnPlan): Routing => ({ action: "turn", plan });
const ignore = (reason: string): Routing => ({ action: "ignore", reason });
