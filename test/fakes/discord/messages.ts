import { message as messagePayload, MessageFlag, MessageKind, type MessagePayload, type UserPayload } from "./payloads.js";
import { snowflake } from "./snowflake.js";
import type { World } from "./world.js";

/** Discord's limit on a message's content. */
const MAX_CONTENT = 2000;

interface AllowedMentions {
  parse?: ("users" | "roles" | "everyone")[];
  users?: string[];
  roles?: string[];
  replied_user?: boolean;
}

/** The message body a bot sends (POST/PATCH), as far as the fake reads it. */
export interface OutgoingMessage {
  content?: string;
  flags?: number;
  allowed_mentions?: AllowedMentions;
  message_reference?: { message_id: string; channel_id?: string; fail_if_not_exists?: boolean };
  embeds?: unknown[];
  /** Files sent with the message (multipart), described in payload_json. */
  attachments?: unknown[];
  /** Message components: action rows of buttons. */
  components?: unknown[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
  }

  get body() {
    return { message: this.message, code: this.code, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

function checkContent(body: OutgoingMessage, creating: boolean): void {
  const content = body.content ?? "";
  if (content.length > MAX_CONTENT) {
    throw new ApiError(400, 50035, "Invalid Form Body", {
      content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${MAX_CONTENT} or fewer in length.` }] },
    });
  }
  if (creating && content.trim() === "" && !body.embeds?.length && !body.attachments?.length) throw new ApiError(400, 50006, "Cannot send an empty message");
}

/**
 * Who a bot message notifies, the way Discord decides: without allowed_mentions everything in the
 * text pings; with it, only what it allows (and the replied-to author only if replied_user).
 */
function resolveMentions(
  world: World,
  content: string,
  allowed: AllowedMentions | undefined,
  repliedTo: UserPayload | undefined,
): Pick<MessagePayload, "mentions" | "mention_roles" | "mention_everyone"> {
  const parse = new Set(allowed ? (allowed.parse ?? []) : ["users", "roles", "everyone"]);
  const userIds = [...content.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
  const roleIds = [...content.matchAll(/<@&(\d+)>/g)].map((m) => m[1]!);
  const users = userIds
    .filter((id) => parse.has("users") || allowed?.users?.includes(id))
    .flatMap((id) => {
      const found = world.users.get(id);
      return found ? [found] : [];
    });
  if (repliedTo && (allowed ? allowed.replied_user === true : true) && !users.some((u) => u.id === repliedTo.id)) {
    users.push(repliedTo);
  }
  return {
    mentions: users,
    mention_roles: roleIds.filter((id) => parse.has("roles") || allowed?.roles?.includes(id)),
    mention_everyone: /@(everyone|here)\b/.test(content) && parse.has("everyone"),
  };
}

/** Stores a message the bot (or its interaction webhook) sends, honouring message_reference. */
export function createBotMessage(
  world: World,
  channelId: string,
  body: OutgoingMessage,
  extra: Partial<MessagePayload> = {},
  /** A deferred interaction response starts empty ("thinking…"). */
  allowEmpty = false,
): MessagePayload {
  const channel = world.channels.get(channelId);
  if (!channel) throw new ApiError(404, 10003, "Unknown Channel");
  checkContent(body, !allowEmpty);
  let reference: MessagePayload["message_reference"];
  let repliedTo: UserPayload | undefined;
  if (body.message_reference) {
    const target = world.channelMessages(channelId).get(body.message_reference.message_id);
    if (target) {
      reference = { message_id: target.id, channel_id: channelId, guild_id: channel.guild_id, type: 0 };
      repliedTo = target.author;
    } else if (body.message_reference.fail_if_not_exists !== false) {
      throw new ApiError(400, 50035, "Invalid Form Body", {
        message_reference: { _errors: [{ code: "REPLIES_UNKNOWN_MESSAGE", message: "Unknown message" }] },
      });
    }
  }
  const content = body.content ?? "";
  const created = messagePayload({
    id: snowflake(),
    channel_id: channelId,
    ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
    author: world.bot,
    content,
    type: reference ? MessageKind.Reply : MessageKind.Default,
    flags: (body.flags ?? 0) & MessageFlag.Ephemeral,
    ...(reference ? { message_reference: reference } : {}),
    ...resolveMentions(world, content, body.allowed_mentions, repliedTo),
    components: body.components ?? [],
    ...extra,
  });
  world.channelMessages(channelId).set(created.id, created);
  if (body.components?.length) world.postedWithComponents.add(created.id);
  channel.last_message_id = created.id;
  return created;
}

export function editBotMessage(world: World, channelId: string, messageId: string, body: OutgoingMessage): MessagePayload {
  const existing = world.channelMessages(channelId).get(messageId);
  if (!existing) throw new ApiError(404, 10008, "Unknown Message");
  if (existing.author.id !== world.bot.id) throw new ApiError(403, 50005, "Cannot edit a message authored by another user");
  checkContent(body, false);
  const content = body.content ?? existing.content;
  const repliedTo = existing.message_reference ? world.channelMessages(channelId).get(existing.message_reference.message_id)?.author : undefined;
  Object.assign(existing, {
    content,
    edited_timestamp: new Date().toISOString(),
    flags: existing.flags & ~MessageFlag.Loading,
    ...resolveMentions(world, content, body.allowed_mentions, repliedTo),
    ...(body.components !== undefined ? { components: body.components } : {}),
  });
  return existing;
}
