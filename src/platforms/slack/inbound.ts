import { z } from "zod";
import type { AttachmentDescriptor, IncomingMessage } from "../../runner/incoming.js";
import { slackTextToPlain } from "./incoming-text.js";

export const PLATFORM = "slack";

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
  files: z
    .array(z.object({ name: z.string().optional(), title: z.string().optional(), mimetype: z.string().optional(), size: z.number().optional(), url_private: z.string().optional() }).passthrough())
    .optional(),
});

/** Subtypes that are still a person writing (not an edit, deletion, join or bot message). */
const PERSON_SUBTYPES = new Set(["thread_broadcast", "file_share"]);

/** The workspace: the enterprise on Enterprise Grid, else the team. */
export function workspaceOf(body: { enterprise_id?: unknown; team_id?: unknown }, fallback?: string): string {
  const id = body.enterprise_id || body.team_id || fallback;
  return typeof id === "string" && id !== "" ? id : "unknown";
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
    workspaceId: workspaceOf(envelope, event.team),
    // A redelivery has the same ts; an edited mention comes back with a new event id but the same ts.
    messageId: event.ts,
    eventId: envelope.event_id,
    channelId: event.channel,
    threadId: inThread ? event.thread_ts : undefined,
    isDm: event.channel_type === "im",
    actor: { id: event.user ?? "", role: "member", isBot: event.bot_id !== undefined || event.subtype === "bot_message" },
    text: slackTextToPlain(stripMention(event.text, botUserId)),
    mentionsBot: event.type === "app_mention" || (botUserId !== undefined && mentions(event.text, botUserId)),
    attachments: (event.files ?? []).map(
      (file): AttachmentDescriptor => ({ name: file.name ?? file.title ?? "file", contentType: file.mimetype, size: file.size, url: file.url_private }),
    ),
    isEdit: event.edited !== undefined || event.subtype === "message_changed",
    // Edits, deletions, joins and the like, and anything without a person behind it.
    isSystem: !subtypeIsPerson || event.user === undefined,
    isOwn: botUserId !== undefined && event.user === botUserId,
  };
}

/** Removes mentions of the bot; without its id, a leading user mention. */
function stripMention(text: string, botUserId: string | undefined): string {
  const pattern = botUserId ? new RegExp(`<@${botUserId}(\\|[^>]*)?>`, "g") : /^\s*<@[UW][A-Z0-9]+(\|[^>]*)?>/;
  return text.replace(pattern, " ").replace(/[ \t]{2,}/g, " ").trim();
}

function mentions(text: string, botUserId: string): boolean {
  return text.includes(`<@${botUserId}>`) || text.includes(`<@${botUserId}|`);
}
