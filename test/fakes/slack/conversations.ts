/** A channel the fake Slack describes (conversations.info) and lists the members of (conversations.members). */
export interface FakeConversation {
  id: string;
  name: string;
  isPrivate?: boolean;
  /** A direct message (is_im). */
  isIm?: boolean;
  members?: string[];
}

/** Members per page when the caller gives no limit (Slack's default is 100). */
const DEFAULT_LIMIT = 100;

/**
 * The fake's conversations: what conversations.info and conversations.members answer, as Slack
 * does for the workspace's token (an unknown channel is channel_not_found), members paged by cursor.
 */
export class FakeConversations {
  private readonly channels = new Map<string, FakeConversation>();

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
