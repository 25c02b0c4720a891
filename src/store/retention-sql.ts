/**
 * The time of the last turn in a bot thread `b`'s conversation, as both engines write it: a Slack
 * thread is the conversation (channel, thread ts); a Discord thread is a channel of its own, so its
 * conversation is (thread id, no thread). 0 when the thread never had a turn of its own.
 */
export const LAST_TURN_IN_THREAD = `
  COALESCE((SELECT MAX(t.started_at) FROM conversations c JOIN turns t ON t.conversation_id = c.id
            WHERE c.platform = b.platform AND c.workspace_id = b.workspace_id AND c.channel_id = b.channel_id AND c.thread_id = b.thread_id), 0),
  COALESCE((SELECT MAX(t.started_at) FROM conversations c JOIN turns t ON t.conversation_id = c.id
            WHERE c.platform = b.platform AND c.workspace_id = b.workspace_id AND c.channel_id = b.thread_id AND c.thread_id = ''), 0)`;
