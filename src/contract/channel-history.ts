/**
 * A channel's earlier messages, read through the platform's history API for a backfill of the
 * history index (`settings channel history backfill DAYS`): the adapter reads one page at a time,
 * within the platform's rate limits; the core decides what to index and keeps the cursor.
 */

/** One earlier message as the platform's history gives it. */
export interface PastMessage {
  messageId: string;
  /** The thread it is a reply in (a Slack thread's ts), if any. */
  threadId?: string;
  authorId: string;
  authorName: string;
  text: string;
  /** ms since the epoch. */
  time: number;
  link?: string;
  /** Written by a bot (the bot itself included: its answers are indexed as exchanges already). */
  byBot: boolean;
}

interface HistoryPage {
  /** Newest first, with the replies of their threads where the platform keeps them apart (Slack). */
  messages: PastMessage[];
  /** Where the next, older page starts; none when this one reached the channel's start or `since`. */
  next?: string;
}

export interface ChannelHistory {
  /** Resolves once the platform is connected (backfills left by an earlier process resume then); none: at once. */
  ready?: Promise<void>;
  /** One page of a channel of `workspaceId` before `cursor` (the newest without one), back to `since` (ms). Throws when the platform refuses. */
  page(query: { workspaceId: string; channelId: string; cursor?: string; since: number }): Promise<HistoryPage>;
}
