import type { MessageMentionOptions } from "discord.js";

/** Nothing in the text notifies anyone: no @everyone/@here, no roles, no users. */
export const NO_PINGS: MessageMentionOptions = { parse: [], repliedUser: false };

/** The answer's reply notifies the asker, and only the asker. */
export const pingOnly = (userId: string): MessageMentionOptions => ({ parse: [], users: [userId], repliedUser: true });
