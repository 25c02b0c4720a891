import type { Client } from "discord.js";
import type { ChannelHistory } from "../../contract/channel-history.js";

/** Messages per page: the most Discord's channel messages endpoint gives. */
const PAGE = 100;

/**
 * A server channel's earlier messages, through discord.js (GET /channels/{id}/messages with
 * before=, its REST queue waiting out Discord's rate limits). The cursor is the oldest message id
 * read; a channel of another server is refused. Threads are channels of their own and not read here.
 */
export function discordChannelHistory(client: Client): ChannelHistory {
  return {
    async page({ workspaceId, channelId, cursor, since }) {
      const channel = await client.channels.fetch(channelId);
      if (!channel?.isTextBased() || channel.isDMBased() || channel.guildId !== workspaceId) throw new Error("not a text channel of this server");
      const fetched = await channel.messages.fetch({ limit: PAGE, cache: false, ...(cursor ? { before: cursor } : {}) });
      const messages = [...fetched.values()].sort((a, b) => b.createdTimestamp - a.createdTimestamp);
      const oldest = messages.at(-1);
      return {
        messages: messages.map((message) => ({
          messageId: message.id,
          authorId: message.author.id,
          authorName: message.member?.displayName ?? message.author.globalName ?? message.author.username,
          text: message.content,
          time: message.createdTimestamp,
          link: message.url,
          byBot: message.author.bot,
        })),
        ...(messages.length === PAGE && oldest && oldest.createdTimestamp >= since ? { next: oldest.id } : {}),
      };
    },
  };
}
