import type { Client } from "discord.js";
import { fetchFromFileHost } from "../../net/file-host.js";
import type { SharedContentSource } from "../../contract/inbound.js";
import { waitingOutRateLimits } from "../../presenter/rate-limits.js";
import { quotedMessage } from "./inbound.js";
import { discordCall } from "./surface.js";

/**
 * What turns may fetch from Discord: attachments from its CDN (DISCORD_CDN_URL; no credentials
 * needed), and earlier messages of a reply chain through discord.js (the core bounds the wait).
 */
export function discordContent(client: Client, cdnUrl: string): SharedContentSource {
  const cdn = new URL(cdnUrl);
  return {
    fetchFile: (file, limits, signal) => fetchFromFileHost(file.url, cdn, limits, signal),
    async fetchMessage(where, messageId) {
      // Lookups are not queued behind a rate limit (see createDiscordClient): short ones are waited out here.
      const channel = await waitingOutRateLimits(() => discordCall(() => client.channels.fetch(where.channelId)));
      if (!channel?.isTextBased()) return undefined;
      const message = await waitingOutRateLimits(() => discordCall(() => channel.messages.fetch(messageId)));
      return quotedMessage(message, client.user!.id);
    },
  };
}
