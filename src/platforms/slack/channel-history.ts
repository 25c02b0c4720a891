import type { ChannelHistory, PastMessage } from "../../contract/channel-history.js";
import { permalinkOf } from "./inbound.js";
import type { SlackApi, SlackHistoryPage } from "./slack-api.js";

/** Messages per page of conversations.history and conversations.replies. */
const PAGE = 200;
/** Pages of one thread's replies read at most (a thread past 2,000 replies keeps its newest unread). */
const MAX_REPLY_PAGES = 10;

type SlackMessage = SlackHistoryPage["messages"][number];

/**
 * A channel's earlier messages through the Web API (conversations.history, and
 * conversations.replies for each thread on the page), SlackApi waiting out Slack's Retry-After.
 * The cursor is conversations.history's; authors are named by users.info (cached). The session's
 * token is its workspace's, so another workspace's channel is refused by Slack.
 */
export function slackChannelHistory(api: SlackApi, nameOf: (userId: string) => Promise<string | undefined>): ChannelHistory {
  return {
    async page({ channelId, cursor, since }) {
      const page = await api.history(channelId, { cursor, oldest: (since / 1000).toFixed(6), limit: PAGE });
      if (!page.ok) throw new Error(`Slack refused conversations.history: ${page.error}`);
      const found: SlackMessage[] = [];
      for (const message of page.value.messages) {
        found.push(message);
        if ((message.reply_count ?? 0) > 0) found.push(...(await threadReplies(api, channelId, message.ts)));
      }
      const url = await api.workspaceUrl();
      const messages: PastMessage[] = [];
      for (const message of found) {
        const byBot = Boolean(message.bot_id) || message.subtype === "bot_message";
        const authorId = message.user ?? message.bot_id ?? "unknown";
        const threadId = message.thread_ts && message.thread_ts !== message.ts ? message.thread_ts : undefined;
        messages.push({
          messageId: message.ts,
          ...(threadId ? { threadId } : {}),
          authorId,
          authorName: (byBot ? undefined : await nameOf(authorId)) ?? authorId,
          text: message.subtype && message.subtype !== "thread_broadcast" ? "" : (message.text ?? ""),
          time: Math.round(Number(message.ts) * 1000),
          ...(url ? { link: permalinkOf(url, channelId, message.ts, threadId) } : {}),
          byBot,
        });
      }
      return { messages, ...(page.value.next ? { next: page.value.next } : {}) };
    },
  };
}

/** A thread's replies (its parent left out), every page within MAX_REPLY_PAGES. */
async function threadReplies(api: SlackApi, channelId: string, ts: string): Promise<SlackMessage[]> {
  const replies: SlackMessage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_REPLY_PAGES; page++) {
    const result = await api.replies(channelId, ts, { cursor, limit: PAGE });
    if (!result.ok) throw new Error(`Slack refused conversations.replies: ${result.error}`);
    replies.push(...result.value.messages.filter((message) => message.ts !== ts));
    cursor = result.value.next;
    if (!cursor) break;
  }
  return replies;
}
