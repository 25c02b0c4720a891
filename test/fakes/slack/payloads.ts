/** Builders for what Slack sends an app: Events API callbacks and slash command payloads. */

let eventCounter = 0;

export interface EnvelopeOptions {
  teamId?: string;
  enterpriseId?: string;
  eventId?: string;
  apiAppId?: string;
  /** Sent to an Enterprise Grid org-wide install. */
  isEnterpriseInstall?: boolean;
}

/** An Events API `event_callback` body around one event. */
export function eventCallback(event: Record<string, unknown>, options: EnvelopeOptions = {}): Record<string, unknown> {
  const teamId = options.teamId ?? "T1";
  return {
    token: "verification-token-unused",
    team_id: teamId,
    ...(options.enterpriseId ? { enterprise_id: options.enterpriseId } : {}),
    api_app_id: options.apiAppId ?? "A1",
    event: { team: teamId, event_ts: event.ts, ...event },
    type: "event_callback",
    event_id: options.eventId ?? `Ev${Date.now().toString(36)}${++eventCounter}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: options.enterpriseId ?? null,
        team_id: teamId,
        user_id: "UBOT",
        is_bot: true,
        is_enterprise_install: options.isEnterpriseInstall === true,
      },
    ],
  };
}

export interface MessageFields {
  user: string;
  text: string;
  channel: string;
  ts: string;
  threadTs?: string;
  channelType?: "channel" | "group" | "im" | "mpim";
  subtype?: string;
  botId?: string;
}

export function appMention(fields: MessageFields): Record<string, unknown> {
  return { type: "app_mention", ...messageBody(fields) };
}

export function message(fields: MessageFields): Record<string, unknown> {
  return { type: "message", channel_type: fields.channelType ?? "channel", ...messageBody(fields) };
}

/** What app_mention and message events share, as Slack names it. */
function messageBody(fields: MessageFields): Record<string, unknown> {
  return {
    user: fields.user,
    text: fields.text,
    ts: fields.ts,
    channel: fields.channel,
    ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
    ...(fields.botId ? { bot_id: fields.botId } : {}),
    ...(fields.subtype ? { subtype: fields.subtype } : {}),
  };
}

export interface CommandFields {
  command: string;
  text: string;
  userId: string;
  channelId: string;
  responseUrl: string;
  teamId?: string;
  /** On Enterprise Grid: the organisation of the workspace. */
  enterpriseId?: string;
}

/** A slash command payload, as the form fields Slack posts (or the Socket Mode payload). */
export function slashCommand(fields: CommandFields): Record<string, string> {
  return {
    token: "verification-token-unused",
    team_id: fields.teamId ?? "T1",
    ...(fields.enterpriseId ? { enterprise_id: fields.enterpriseId, enterprise_name: `org ${fields.enterpriseId}` } : {}),
    team_domain: "fake",
    channel_id: fields.channelId,
    channel_name: "general",
    user_id: fields.userId,
    user_name: fields.userId.toLowerCase(),
    command: fields.command,
    text: fields.text,
    api_app_id: "A1",
    is_enterprise_install: "false",
    response_url: fields.responseUrl,
    trigger_id: `trigger-${++eventCounter}`,
  };
}

export interface BlockActionFields {
  userId: string;
  channel: string;
  /** The message the buttons are on, as Slack has it. */
  message: { ts: string; threadTs?: string; text: string; blocks: any[] };
  actionId: string;
  value: string;
  /** The element pressed: a button unless told (Slack's feedback buttons are "feedback_buttons"). */
  actionType?: string;
  responseUrl: string;
  teamId?: string;
  enterpriseId?: string;
}

/** A `block_actions` payload: someone pressed a button in a message's blocks. */
export function blockActions(fields: BlockActionFields): Record<string, unknown> {
  const teamId = fields.teamId ?? "T1";
  const block = fields.message.blocks.find((candidate) => candidate.elements?.some((element: any) => element.action_id === fields.actionId));
  return {
    type: "block_actions",
    user: { id: fields.userId, username: fields.userId.toLowerCase(), name: fields.userId.toLowerCase(), team_id: teamId },
    api_app_id: "A1",
    token: "verification-token-unused",
    container: {
      type: "message",
      message_ts: fields.message.ts,
      channel_id: fields.channel,
      is_ephemeral: false,
      ...(fields.message.threadTs ? { thread_ts: fields.message.threadTs } : {}),
    },
    trigger_id: `trigger-${++eventCounter}`,
    team: { id: teamId, domain: "fake" },
    enterprise: fields.enterpriseId ? { id: fields.enterpriseId, name: `org ${fields.enterpriseId}` } : null,
    is_enterprise_install: false,
    channel: { id: fields.channel, name: "general" },
    message: {
      type: "message",
      user: "UBOT",
      ts: fields.message.ts,
      ...(fields.message.threadTs ? { thread_ts: fields.message.threadTs } : {}),
      text: fields.message.text,
      blocks: fields.message.blocks,
    },
    state: { values: {} },
    response_url: fields.responseUrl,
    actions: [
      {
        type: fields.actionType ?? "button",
        action_id: fields.actionId,
        block_id: block?.block_id ?? "block",
        text: { type: "plain_text", text: fields.actionId, emoji: true },
        value: fields.value,
        action_ts: `${Math.floor(Date.now() / 1000)}.000100`,
      },
    ],
  };
}

/** A message deleted in Slack: a `message` event of subtype message_deleted, naming the deleted ts. */
export function messageDeleted(fields: { channel: string; deletedTs: string; ts: string }): Record<string, unknown> {
  return {
    type: "message",
    subtype: "message_deleted",
    hidden: true,
    channel: fields.channel,
    ts: fields.ts,
    deleted_ts: fields.deletedTs,
    channel_type: "channel",
  };
}

/** A message edited in Slack: subtype message_changed, with the message as it is now. */
export function messageChanged(fields: { channel: string; ts: string; editedTs: string; user: string; text: string }): Record<string, unknown> {
  return {
    type: "message",
    subtype: "message_changed",
    hidden: true,
    channel: fields.channel,
    ts: fields.editedTs,
    channel_type: "channel",
    message: { type: "message", user: fields.user, text: fields.text, ts: fields.ts, edited: { user: fields.user, ts: fields.editedTs } },
  };
}
