import type { ChannelReader } from "../../contract/channel-access.js";
import type { SlackApi } from "./slack-api.js";

/** A channel as people and the model write it in Slack: `<#C123|name>`, `<#C123>`, or its id. */
const CHANNEL_REFERENCE = /^<#([CGD][A-Z0-9]{2,})(?:\|[^>]*)?>$|^([CGD][A-Z0-9]{2,})$/;

/**
 * Whether a person may read a channel of the workspace they ask in: a public channel, or a
 * private one they are a member of; never a direct conversation. The session's token is that
 * workspace's, so another workspace's channel is not found. Names (`#general`) are not looked up
 * (conversations.list would read every channel): the model is told to use the channel's mention.
 */
export function slackChannelAccess(api: SlackApi): ChannelReader {
  return async ({ userId, channel }) => {
    const match = CHANNEL_REFERENCE.exec(channel.trim());
    const id = match?.[1] ?? match?.[2];
    if (!id) return { readable: false, reason: "not-found" };
    const info = await api.conversationInfo(id);
    if (!info.ok) return { readable: false, reason: info.error === "channel_not_found" ? "not-found" : "unavailable" };
    const found = info.value;
    if (found.isDirect) return { readable: false, reason: "direct-messages" };
    const readable = { readable: true, channelId: found.id, name: found.name ? `#${found.name}` : `<#${found.id}>` } as const;
    if (!found.isPrivate) return readable;
    const member = await api.isMember(found.id, userId);
    if (!member.ok) return { readable: false, reason: member.error === "channel_not_found" ? "not-found" : "unavailable" };
    return member.value ? readable : { readable: false, reason: "no-access" };
  };
}
