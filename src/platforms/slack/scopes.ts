/**
 * The bot scopes the adapter uses: what the manifest asks for (see manifest.yaml) and, in
 * distribution mode, what the "Add to Slack" button requests.
 */
export const BOT_SCOPES = [
  "app_mentions:read",
  "chat:write",
  "assistant:write",
  "commands",
  "reactions:write",
  "users:read",
  "channels:history",
  "groups:history",
  "im:history",
  // conversations.info and conversations.members: whether a person may read a channel search_history names
  "channels:read",
  "groups:read",
  "files:read",
  "files:write",
] as const;
