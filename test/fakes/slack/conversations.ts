/** A channel the fake Slack describes (conversations.info) and lists the members of (conversations.members). */
export interface FakeConversation {
  id: string;
  name: string;
  isPrivate?: boolean;
  /** A direct message (is_im). */
  isIm?: boolean;
  members?: string[];
}

/** A message posted before the bot was there (no event), for conversations.history and conversations.replies. */
export interface PastSlackMessage {
  ts: string;
  user?: string;
  botId?: string;
  text: string;
  /** The thread's parent ts, for a reply. */
  threadTs?: string;
}

/** Members per page when the caller gives no limit (Slack's default is 100). */
const DEFAULT_LIMIT = 100;

/**
 * The fake's conversations: what conversations.info and conversations.members answer, as Slack
 * does for the workspace's token (an unknown channel is channel_not_found), members paged by cursor.
 */
export class FakeConversations {
  private readonly channels = new Map<string, FakeConversation>();
  private readonly past = new Map<string, PastSlackMessage[]>();

  /** Messages of a channel's past, as conversations.history and conversations.replies will give them. */
  seed(channel: string, messages: readonly PastSlackMessage[]): void {
    this.past.set(
      channel,
      [...(this.past.get(channel) ?? []), ...messages].sort((a, b) => Number(a.ts) - Number(b.ts)),
    );
  }

  /** conversations.history: top-level messages newest first, from `oldest` on, paged by an offset cursor. */
  history(params: Record<string, any>): Record<string, any> {
    const all = (this.past.get(String(params.channel)) ?? [])
      .filter((m) => !m.threadTs && Number(m.ts) >= Number(params.oldest ?? 0))
      .reverse()
      .map((m) => this.payload(String(params.channel), m));
    return this.paged(all, params, "messages");
  }

  /** conversations.replies: the parent and its replies, oldest first, paged. */
  replies(params: Record<string, any>): Record<string, any> {
    const ts = String(params.ts);
    const all = (this.past.get(String(params.channel)) ?? [])
      .filter((m) => m.ts === ts || m.threadTs === ts)
      .map((m) => this.payload(String(params.channel), m));
    if (all.length === 0) return { ok: false, error: "thread_not_found" };
    return this.paged(all, params, "messages");
  }

  private payload(channel: string, m: PastSlackMessage): Record<string, any> {
    const replies = m.threadTs ? 0 : (this.past.get(channel) ?? []).filter((r) => r.threadTs === m.ts).length;
    return {
      type: "message",
      ts: m.ts,
      text: m.text,
      ...(m.user ? { user: m.user } : {}),
      ...(m.botId ? { bot_id: m.botId, subtype: "bot_message" } : {}),
      ...(m.threadTs ? { thread_ts: m.threadTs } : replies > 0 ? { thread_ts: m.ts, reply_count: replies } : {}),
    };
  }

  private paged(all: Record<string, any>[], params: Record<string, any>, field: string): Record<string, any> {
    const limit = Number(params.limit ?? DEFAULT_LIMIT);
    const start = Number(params.cursor || 0);
    const more = start + limit < all.length;
    return { ok: true, [field]: all.slice(start, start + limit), has_more: more, response_metadata: { next_cursor: more ? String(start + limit) : "" } };
  }

  add(conversation: FakeConversation): FakeConversation {
    this.channels.set(conversation.id, conversation);
    return conversation;
  }

  info(params: Record<string, any>): Record<string, any> {
    const found = this.channels.get(String(params.channel ?? ""));
    if (!found) return { ok: false, error: "channel_not_found" };
    return {
      ok: true,
      channel: {
        id: found.id,
        ...(found.isIm ? { is_im: true, user: found.members?.[0] } : { name: found.name, is_channel: !found.isPrivate, is_group: found.isPrivate === true }),
        is_private: found.isPrivate === true || found.isIm === true,
        is_mpim: false,
        is_archived: false,
      },
    };
  }

  members(params: Record<string, any>): Record<string, any> {
    const found = this.channels.get(String(params.channel ?? ""));
    if (!found) return { ok: false, error: "channel_not_found" };
    const limit = Number(params.limit ?? DEFAULT_LIMIT);
    const start = Number(params.cursor ?? 0);
    const all = found.members ?? [];
    const next = start + limit < all.length ? String(start + limit) : "";
    return { ok: true, members: all.slice(start, start + limit), response_metadata: { next_cursor: next } };
  }
}
