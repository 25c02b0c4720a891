/**
 * Whether a person may read another channel of their workspace (search_history's `channel:`),
 * as the platform answers it: the core asks, the adapter checks with the platform, and the core
 * refuses whatever is not readable. Its own file: the tools' request names it too.
 */

/** A channel named in a request, and who asks to read it. */
interface ChannelReadQuery {
  /** The workspace the question was asked in: only a channel of its is ever readable. */
  workspaceId: string;
  userId: string;
  /** As the model or the asker wrote it: an id, a mention (`<#id>`), a name (`#general`). */
  channel: string;
}

/** Why a channel is not readable: none of that name in the workspace, the person may not read it, a direct conversation, or the platform did not answer. */
export type ChannelRefusal = "not-found" | "no-access" | "direct-messages" | "unavailable";

/** The channel as the history index names it (a thread's parent channel), with a name for people; or why not. */
export type ChannelReadAnswer = { readable: true; channelId: string; name: string } | { readable: false; reason: ChannelRefusal };

/** Discord: the member's View Channel permission there; Slack: a public channel, or the person is a member. */
export type ChannelReader = (query: ChannelReadQuery) => Promise<ChannelReadAnswer>;

/** The asker's own check, bound to their workspace and id by the core (the tools get it in their request). */
export type AskerChannelReader = (channel: string) => Promise<ChannelReadAnswer>;
