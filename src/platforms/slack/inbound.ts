import { z } from "zod";
import type { AttachmentDescriptor, IncomingMessage, PlatformOrder, QuotedMessage } from "../../contract/inbound.js";
import { slackTextToPlain } from "./incoming-text.js";

export const PLATFORM = "slack";

/** A file on a message, as Slack describes it (without addresses when Slack wants files.info asked first). */
const slackFileSchema = z
  .object({
    name: z.string().optional(),
    title: z.string().optional(),
    mimetype: z.string().optional(),
    size: z.number().optional(),
    url_private: z.string().optional(),
    url_private_download: z.string().optional(),
  })
  .passthrough();

/** A message shared into this one ("Forward message"), as Slack attaches it. */
const sharedMessageSchema = z.object({
  is_share: z.boolean().optional(),
  is_msg_unfurl: z.boolean().optional(),
  text: z.string().optional(),
  fallback: z.string().optional(),
  author_id: z.string().optional(),
  author_name: z.string().optional(),
  author_subname: z.string().optional(),
  ts: z.string().optional(),
  files: z.array(z.unknown()).optional(),
});

/** The fields of an `app_mention` or `message` event the adapter reads; anything else passes through. */
const slackMessageSchema = z.object({
  type: z.string(),
  subtype: z.string().optional(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  text: z.string().default(""),
  ts: z.string(),
  thread_ts: z.string().optional(),
  channel: z.string(),
  channel_type: z.string().optional(),
  edited: z.unknown().optional(),
  team: z.string().optional(),
  // Read item by item (see `lenient`): one odd file or attachment never costs the message.
  files: z.array(z.unknown()).optional(),
  attachments: z.array(z.unknown()).optional(),
});

/** Subtypes that are still a person writing (not an edit, deletion, join or bot message). */
const PERSON_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

/** Where a Slack request came from: its workspace (team) and, on Enterprise Grid, the organisation. */
export interface SlackPlace {
  teamId?: string;
  enterpriseId?: string;
}

/** The place a request names (an event's envelope, a slash command, a button press's team and enterprise). */
export function placeOf(body: { enterprise_id?: unknown; team_id?: unknown }, fallbackTeam?: unknown): SlackPlace {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
  return { teamId: text(body.team_id) ?? text(fallbackTeam), enterpriseId: text(body.enterprise_id) };
}

/**
 * The bot's workspace: the organisation on Enterprise Grid, else the team. Settings, memory and
 * usage stay the organisation's, as they were stored; isAdminIn keeps them to its own admins.
 */
export function workspaceOf(place: SlackPlace): string {
  return place.enterpriseId ?? place.teamId ?? "unknown";
}

export interface SlackEnvelope {
  enterprise_id?: unknown;
  team_id?: unknown;
  event_id?: string;
}

/** A Slack message event in the core's terms, or undefined for an event that is no message at all. */
export function incomingMessage(raw: unknown, envelope: SlackEnvelope, botUserId: string | undefined): IncomingMessage | undefined {
  const parsed = slackMessageSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const event = parsed.data;
  const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
  const subtypeIsPerson = event.subtype === undefined || PERSON_SUBTYPES.has(event.subtype);
  return {
    platform: PLATFORM,
    workspaceId: workspaceOf(placeOf(envelope, event.team)),
    // A redelivery has the same ts; an edited mention comes back with a new event id but the same ts.
    messageId: event.ts,
    eventId: envelope.event_id,
    order: slackOrder(event.ts),
    channelId: event.channel,
    threadId: inThread ? event.thread_ts : undefined,
    isDm: event.channel_type === "im",
    actor: { id: event.user ?? "", role: "member", isBot: event.bot_id !== undefined || event.subtype === "bot_message" },
    text: slackTextToPlain(stripMention(event.text, botUserId)),
    mentionsBot: event.type === "app_mention" || (botUserId !== undefined && mentions(event.text, botUserId)),
    attachments: filesOf(event.files),
    forwarded: sharedMessages(event.attachments, botUserId),
    isEdit: event.edited !== undefined || event.subtype === "message_changed",
    // Edits, deletions, joins and the like, and anything without a person behind it.
    isSystem: !subtypeIsPerson || event.user === undefined,
    isOwn: botUserId !== undefined && event.user === botUserId,
  };
}

/**
 * A message's place in Slack's order: its ts ("seconds.microseconds", stamped by Slack when the
 * message was posted) in microseconds. Slack delivers each event in a request of its own, to
 * whichever process, so the turn holds back a moment from `sentAt` for an earlier one still on its way.
 */
export function slackOrder(ts: string): PlatformOrder | undefined {
  const match = /^(\d{1,12})\.(\d{1,6})$/.exec(ts);
  if (!match) return undefined;
  const micros = match[2]!.padEnd(6, "0");
  return { key: `${BigInt(match[1]!) * 1_000_000n + BigInt(micros)}`, sentAt: Number(match[1]) * 1000 + Math.floor(Number(micros) / 1000) };
}

/** Items that match the schema; the others are left out. */
function lenient<T>(items: unknown[] | undefined, schema: z.ZodType<T>): T[] {
  return (items ?? []).flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Files as descriptors; the address is on Slack's file host and needs the bot token (files:read). */
function filesOf(files: unknown[] | undefined): AttachmentDescriptor[] {
  return lenient(files, slackFileSchema).map((file) => ({
    name: file.name ?? file.title ?? "file",
    contentType: file.mimetype,
    size: file.size,
    url: file.url_private_download ?? file.url_private,
  }));
}

/** Messages shared into this one; other attachments (link previews, apps' cards) are not messages anyone forwarded. */
function sharedMessages(attachments: unknown[] | undefined, botUserId: string | undefined): QuotedMessage[] | undefined {
  const shared = lenient(attachments, sharedMessageSchema).filter((attachment) => attachment.is_share || attachment.is_msg_unfurl);
  if (shared.length === 0) return undefined;
  return shared.map((attachment) => ({
    messageId: attachment.ts,
    authorId: attachment.author_id,
    authorName: attachment.author_name ?? attachment.author_subname,
    isOwn: botUserId !== undefined && attachment.author_id === botUserId,
    text: slackTextToPlain(attachment.text ?? attachment.fallback ?? ""),
    attachments: filesOf(attachment.files),
  }));
}

/** Removes mentions of the bot; without its id, a leading user mention. */
function stripMention(text: string, botUserId: string | undefined): string {
  const pattern = botUserId ? new RegExp(`<@${botUserId}(\\|[^>]*)?>`, "g") : /^\s*<@[UW][A-Z0-9]+(\|[^>]*)?>/;
  return text
    .replace(pattern, " ")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
}

function mentions(text: string, botUserId: string): boolean {
  return text.includes(`<@${botUserId}>`) || text.includes(`<@${botUserId}|`);
}

/** What a deletion or an edit names: Slack's message_deleted and message_changed subtypes of a message event. */
const changeSchema = z.discriminatedUnion("subtype", [
  z.object({ subtype: z.literal("message_deleted"), channel: z.string(), deleted_ts: z.string() }),
  z.object({
    subtype: z.literal("message_changed"),
    channel: z.string(),
    message: z.object({ ts: z.string(), text: z.string().default(""), user: z.string().optional(), bot_id: z.string().optional() }),
  }),
]);

export type MessageChange = { deleted: { channelId: string; messageId: string } } | { edited: { channelId: string; messageId: string; text: string } };

/** A deletion or an edit of a message, or undefined for any other event. The bot's own edits (its streamed answers) are none. */
export function messageChange(raw: unknown, botUserId: string | undefined): MessageChange | undefined {
  const parsed = changeSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const event = parsed.data;
  if (event.subtype === "message_deleted") return { deleted: { channelId: event.channel, messageId: event.deleted_ts } };
  if (event.message.bot_id !== undefined || (botUserId !== undefined && event.message.user === botUserId)) return undefined;
  return { edited: { channelId: event.channel, messageId: event.message.ts, text: slackTextToPlain(stripMention(event.message.text, botUserId)) } };
}

/** A message's permalink, built as Slack builds them (chat.getPermalink's form), from the workspace's address. */
export function permalinkOf(workspaceUrl: string, channelId: string, ts: string, threadTs?: string): string {
  const base = `${workspaceUrl.replace(/\/?$/, "/")}archives/${channelId}/p${ts.replace(".", "")}`;
  return threadTs ? `${base}?thread_ts=${threadTs}&cid=${channelId}` : base;
}
