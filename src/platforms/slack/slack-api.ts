import { webApi, type types } from "@slack/bolt";
import { z } from "zod";
import type { Logger } from "../../log.js";

type WebClient = InstanceType<typeof webApi.WebClient>;

/**
 * A Web API call's outcome: never thrown, so a Slack refusal cannot crash a turn. A rate limit
 * (HTTP 429, or HTTP 200 with `ok: false, error: "ratelimited"`) is a failure with `retryAfterSeconds`.
 */
export type SlackResult<T> = { ok: true; value: T } | { ok: false; error: string; retryAfterSeconds?: number };

/** A chunk of a native stream: Markdown text, or a tool step as a task card. */
export type StreamChunk =
  | { type: "markdown_text"; text: string }
  | { type: "task_update"; id: string; title: string; status: "pending" | "in_progress" | "complete" | "error"; output?: string };

export interface SlackApiOptions {
  /** Rate-limited calls are retried after Slack's Retry-After, this many times. */
  rateLimitRetries?: number;
  /** A Retry-After longer than this gives up instead of waiting. */
  maxRetryAfterSeconds?: number;
}

/** What an operator should do about an error code, for the log line. */
const HINTS: Record<string, string> = {
  not_in_channel: "invite the app to the channel (/invite @app) and ask again",
  channel_not_found: "the channel is gone or the app cannot see it (a private channel the app is not in?)",
  is_archived: "the channel is archived",
  missing_scope: "add the missing scope to the app (see the manifest) and reinstall it",
  invalid_auth: "check SLACK_BOT_TOKEN",
  not_authed: "check SLACK_BOT_TOKEN",
  token_revoked: "the app was uninstalled or its token revoked: reinstall and update SLACK_BOT_TOKEN",
  account_inactive: "the app was uninstalled or its token revoked: reinstall and update SLACK_BOT_TOKEN",
  msg_too_long: "a message was longer than Slack accepts (this is a bug in the splitter)",
};

/** Errors that are expected in normal use and only logged at debug level. */
const QUIET: Record<string, readonly string[]> = {
  "reactions.add": ["already_reacted"],
  "reactions.remove": ["no_reaction", "message_not_found"],
  // Refusals of native streaming and of the thread status fall back to posting and to the reaction.
  "chat.startStream": ["channel_type_not_supported", "unknown_method", "missing_scope", "not_allowed_token_type", "feature_not_enabled"],
  "chat.appendStream": ["message_not_in_streaming_state"],
  "chat.stopStream": ["message_not_in_streaming_state"],
  "assistant.threads.setStatus": ["unknown_method", "missing_scope", "invalid_thread_ts", "feature_not_enabled", "not_allowed_token_type"],
  "assistant.threads.setSuggestedPrompts": ["unknown_method", "missing_scope", "feature_not_enabled"],
  "assistant.threads.setTitle": ["unknown_method", "missing_scope", "feature_not_enabled"],
};

const conversationInfoSchema = z.object({
  channel: z.object({
    id: z.string(),
    name: z.string().optional(),
    is_private: z.boolean().optional(),
    is_im: z.boolean().optional(),
    is_mpim: z.boolean().optional(),
  }),
});

const membersSchema = z.object({ members: z.array(z.string()), response_metadata: z.object({ next_cursor: z.string().optional() }).optional() });

const historySchema = z.object({
  messages: z.array(
    z.object({
      ts: z.string(),
      user: z.string().optional(),
      bot_id: z.string().optional(),
      subtype: z.string().optional(),
      text: z.string().optional(),
      thread_ts: z.string().optional(),
      reply_count: z.number().optional(),
    }),
  ),
  has_more: z.boolean().optional(),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

/** A page of conversations.history or conversations.replies: the messages, and the cursor of the next page (none at the end). */
export interface SlackHistoryPage {
  messages: z.infer<typeof historySchema>["messages"];
  next?: string;
}

/** A conversation as conversations.info describes it to this workspace's token. */
export interface SlackConversation {
  id: string;
  name?: string;
  isPrivate: boolean;
  /** A direct conversation (one person, or several: an MPIM). */
  isDirect: boolean;
}

/** Pages of conversations.members read at most (of 200): a bigger private channel counts as not joined. */
const MAX_MEMBER_PAGES = 10;

const userInfoSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string().optional(),
    real_name: z.string().optional(),
    is_admin: z.boolean().optional(),
    is_owner: z.boolean().optional(),
    is_primary_owner: z.boolean().optional(),
    team_id: z.string().optional(),
    // On Enterprise Grid: the person's standing in the organisation (is_admin above is for their own workspace).
    enterprise_user: z
      .object({
        enterprise_id: z.string(),
        is_admin: z.boolean().optional(),
        is_owner: z.boolean().optional(),
        is_primary_owner: z.boolean().optional(),
      })
      .nullish(),
    profile: z.object({ display_name: z.string().optional(), real_name: z.string().optional() }).optional(),
  }),
});

export interface SlackUser {
  id: string;
  name?: string;
  /** The person's own workspace. */
  teamId?: string;
  /** An admin or owner of their own workspace (`teamId`). */
  isWorkspaceAdmin: boolean;
  /** On Enterprise Grid: their organisation, and whether they are its admin or owner. */
  enterprise?: { id: string; isAdmin: boolean };
}

export interface PostMessage {
  channel: string;
  /** The message, or with `blocks` its notification text. */
  text: string;
  threadTs?: string;
  broadcast?: boolean;
  /** Block Kit layout (a request for approval with its buttons). */
  blocks?: types.KnownBlock[];
}

/**
 * The Web API calls the adapter makes, each with one clear log line when Slack says no
 * and a retry, after Slack's Retry-After, when it is rate-limited.
 */
export class SlackApi {
  private readonly rateLimitRetries: number;
  private readonly maxRetryAfterSeconds: number;

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    options: SlackApiOptions = {},
  ) {
    this.rateLimitRetries = options.rateLimitRetries ?? 3;
    this.maxRetryAfterSeconds = options.maxRetryAfterSeconds ?? 60;
  }

  async postMessage(message: PostMessage): Promise<SlackResult<{ ts: string }>> {
    const common = {
      channel: message.channel,
      text: message.text,
      unfurl_links: false,
      unfurl_media: false,
      ...(message.blocks ? { blocks: message.blocks } : {}),
    };
    const result = await this.call("chat.postMessage", { channel: message.channel }, () =>
      this.client.chat.postMessage(message.threadTs ? { ...common, thread_ts: message.threadTs, reply_broadcast: message.broadcast === true } : common),
    );
    if (!result.ok) return result;
    const ts = (result.value as { ts?: string }).ts;
    return ts ? { ok: true, value: { ts } } : { ok: false, error: "no_ts_returned" };
  }

  /**
   * `blocks` replaces the message's blocks (an empty list removes them); without it they stay as
   * they were. `waitOutRateLimits: false` returns a rate limit at once (a streamed answer's in-between update).
   */
  async updateMessage(
    channel: string,
    ts: string,
    text: string,
    { blocks, waitOutRateLimits = true }: { blocks?: types.KnownBlock[]; waitOutRateLimits?: boolean } = {},
  ): Promise<SlackResult<unknown>> {
    return this.call("chat.update", { channel }, () => this.client.chat.update({ channel, ts, text, ...(blocks ? { blocks } : {}) }), waitOutRateLimits);
  }

  /** A message only `user` sees, in the channel (or thread) they are looking at. */
  async postEphemeral({ channel, user, text, threadTs }: { channel: string; user: string; text: string; threadTs?: string }): Promise<SlackResult<unknown>> {
    return this.call("chat.postEphemeral", { channel }, () =>
      this.client.chat.postEphemeral({ channel, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) }),
    );
  }

  async deleteMessage(channel: string, ts: string): Promise<SlackResult<unknown>> {
    return this.call("chat.delete", { channel }, () => this.client.chat.delete({ channel, ts }));
  }

  /** chat.startStream in a thread; in channels Slack needs the recipient's user and team ids. */
  async startStream(stream: {
    channel: string;
    threadTs: string;
    userId: string;
    teamId?: string;
    chunks: StreamChunk[];
  }): Promise<SlackResult<{ ts: string }>> {
    const result = await this.call(
      "chat.startStream",
      { channel: stream.channel },
      () =>
        this.client.chat.startStream({
          channel: stream.channel,
          thread_ts: stream.threadTs,
          recipient_user_id: stream.userId,
          ...(stream.teamId ? { recipient_team_id: stream.teamId } : {}),
          chunks: stream.chunks,
        }),
      false,
    );
    if (!result.ok) return result;
    const ts = (result.value as { ts?: string }).ts;
    return ts ? { ok: true, value: { ts } } : { ok: false, error: "no_ts_returned" };
  }

  async appendStream(channel: string, ts: string, chunks: StreamChunk[]): Promise<SlackResult<unknown>> {
    return this.call("chat.appendStream", { channel }, () => this.client.chat.appendStream({ channel, ts, chunks }), false);
  }

  /** `blocks` go at the end of the finished message (an answer's feedback buttons). */
  async stopStream(channel: string, ts: string, chunks: StreamChunk[], blocks?: types.KnownBlock[]): Promise<SlackResult<unknown>> {
    return this.call("chat.stopStream", { channel }, () =>
      this.client.chat.stopStream({ channel, ts, ...(chunks.length > 0 ? { chunks } : {}), ...(blocks ? { blocks } : {}) }),
    );
  }

  /** The status under the bot's name in a DM or assistant thread ("" clears it). */
  async setThreadStatus(channel: string, threadTs: string, status: string): Promise<SlackResult<unknown>> {
    return this.call("assistant.threads.setStatus", { channel }, () =>
      this.client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status }),
    );
  }

  /** The prompts an assistant thread offers to start with (at most four). */
  async setSuggestedPrompts(channel: string, threadTs: string, prompts: { title: string; message: string }[]): Promise<SlackResult<unknown>> {
    return this.call("assistant.threads.setSuggestedPrompts", { channel }, () =>
      this.client.assistant.threads.setSuggestedPrompts({ channel_id: channel, thread_ts: threadTs, prompts: prompts as [{ title: string; message: string }] }),
    );
  }

  /** An assistant thread's title in the user's history of threads. */
  async setThreadTitle(channel: string, threadTs: string, title: string): Promise<SlackResult<unknown>> {
    return this.call("assistant.threads.setTitle", { channel }, () =>
      this.client.assistant.threads.setTitle({ channel_id: channel, thread_ts: threadTs, title }),
    );
  }

  /** A user's App Home tab (views.publish). */
  async publishHome(userId: string, blocks: types.KnownBlock[]): Promise<SlackResult<unknown>> {
    return this.call("views.publish", { user: userId }, () => this.client.views.publish({ user_id: userId, view: { type: "home", blocks } }));
  }

  /** The bot's own team (auth.test), asked once: native streams in channels name the recipient's team. */
  teamId(): Promise<string | undefined> {
    this.team ??= this.call("auth.test", {}, () => this.client.auth.test()).then((result) =>
      result.ok ? ((result.value as { team_id?: string }).team_id ?? undefined) : undefined,
    );
    return this.team;
  }

  private team?: Promise<string | undefined>;

  /** The workspace's address (auth.test's url, "https://NAME.slack.com/"), asked once, for permalinks. */
  workspaceUrl(): Promise<string | undefined> {
    this.url ??= this.call("auth.test", {}, () => this.client.auth.test()).then((result) => {
      const url = result.ok ? (result.value as { url?: string }).url : undefined;
      if (!url) this.url = undefined; // asked again next time
      return url;
    });
    return this.url;
  }

  private url?: Promise<string | undefined>;

  /** Shares text as a file in a channel or thread (files.getUploadURLExternal, the upload, files.completeUploadExternal). */
  async uploadText({
    channel,
    threadTs,
    name,
    text,
    note,
  }: {
    channel: string;
    threadTs?: string;
    name: string;
    text: string;
    note: string;
  }): Promise<SlackResult<unknown>> {
    const file = { filename: name, title: name, content: text, initial_comment: note };
    return this.call("files.uploadV2", { channel }, () =>
      this.client.filesUploadV2(threadTs ? { ...file, channel_id: channel, thread_ts: threadTs } : { ...file, channel_id: channel }),
    );
  }

  async addReaction(channel: string, ts: string, name: string): Promise<SlackResult<unknown>> {
    return this.call("reactions.add", { channel }, () => this.client.reactions.add({ channel, timestamp: ts, name }));
  }

  async removeReaction(channel: string, ts: string, name: string): Promise<SlackResult<unknown>> {
    return this.call("reactions.remove", { channel }, () => this.client.reactions.remove({ channel, timestamp: ts, name }));
  }

  async userInfo(userId: string): Promise<SlackResult<SlackUser>> {
    const result = await this.call("users.info", { user: userId }, () => this.client.users.info({ user: userId }));
    if (!result.ok) return result;
    const parsed = userInfoSchema.safeParse(result.value);
    if (!parsed.success) {
      this.logger.warn({ method: "users.info", user: userId }, "Slack answered users.info in an unexpected shape");
      return { ok: false, error: "unexpected_response" };
    }
    const { user } = parsed.data;
    const org = user.enterprise_user;
    return {
      ok: true,
      value: {
        id: user.id,
        name: user.profile?.display_name || user.real_name || user.profile?.real_name || user.name,
        teamId: user.team_id,
        isWorkspaceAdmin: Boolean(user.is_admin || user.is_owner || user.is_primary_owner),
        enterprise: org ? { id: org.enterprise_id, isAdmin: Boolean(org.is_admin || org.is_owner || org.is_primary_owner) } : undefined,
      },
    };
  }

  async conversationInfo(channel: string): Promise<SlackResult<SlackConversation>> {
    const result = await this.call("conversations.info", { channel }, () => this.client.conversations.info({ channel }));
    if (!result.ok) return result;
    const parsed = conversationInfoSchema.safeParse(result.value);
    if (!parsed.success) return { ok: false, error: "unexpected_response" };
    const found = parsed.data.channel;
    return { ok: true, value: { id: found.id, name: found.name, isPrivate: found.is_private === true, isDirect: Boolean(found.is_im || found.is_mpim) } };
  }

  /** conversations.history: a channel's messages newest first, from `oldest` (a ts) on, a page at `cursor`. */
  async history(channel: string, page: { cursor?: string; oldest: string; limit: number }): Promise<SlackResult<SlackHistoryPage>> {
    const result = await this.call("conversations.history", { channel }, () =>
      this.client.conversations.history({ channel, oldest: page.oldest, limit: page.limit, ...(page.cursor ? { cursor: page.cursor } : {}) }),
    );
    return historyPage(result);
  }

  /** conversations.replies: a thread's parent and replies, oldest first, a page at `cursor`. */
  async replies(channel: string, ts: string, page: { cursor?: string; limit: number }): Promise<SlackResult<SlackHistoryPage>> {
    const result = await this.call("conversations.replies", { channel }, () =>
      this.client.conversations.replies({ channel, ts, limit: page.limit, ...(page.cursor ? { cursor: page.cursor } : {}) }),
    );
    return historyPage(result);
  }

  /** Whether `user` is a member of `channel` (conversations.members, paged, within MAX_MEMBER_PAGES). */
  async isMember(channel: string, user: string): Promise<SlackResult<boolean>> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_MEMBER_PAGES; page++) {
      const result = await this.call("conversations.members", { channel }, () =>
        this.client.conversations.members({ channel, limit: 200, ...(cursor ? { cursor } : {}) }),
      );
      if (!result.ok) return result;
      const parsed = membersSchema.safeParse(result.value);
      if (!parsed.success) return { ok: false, error: "unexpected_response" };
      if (parsed.data.members.includes(user)) return { ok: true, value: true };
      cursor = parsed.data.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return { ok: true, value: false };
  }

  private async call<T>(method: string, where: Record<string, string>, send: () => Promise<T>, waitOutRateLimits = true): Promise<SlackResult<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { ok: true, value: await send() };
      } catch (error) {
        const failure = describe(error);
        const retryAfter = failure.error === "ratelimited" ? (failure.retryAfter ?? 1) : undefined;
        if (retryAfter !== undefined && !waitOutRateLimits) {
          this.logger.debug({ method, ...where, retryAfterSeconds: retryAfter }, `Slack rate-limited ${method}`);
          return { ok: false, error: failure.error, retryAfterSeconds: retryAfter };
        }
        if (retryAfter !== undefined && attempt < this.rateLimitRetries && retryAfter <= this.maxRetryAfterSeconds) {
          this.logger.warn(
            { method, ...where, retryAfterSeconds: retryAfter, attempt: attempt + 1 },
            `Slack rate-limited ${method}; retrying after ${retryAfter} s as Slack asks`,
          );
          await sleep(retryAfter * 1000);
          continue;
        }
        const hint = HINTS[failure.error];
        const quiet = QUIET[method]?.includes(failure.error);
        this.logger[quiet ? "debug" : "warn"](
          { method, ...where, error: failure.error, ...(hint ? { hint } : {}), ...(failure.detail ? { detail: failure.detail } : {}) },
          `Slack refused ${method}: ${failure.error}${hint ? ` (${hint})` : ""}`,
        );
        return { ok: false, error: failure.error, ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) };
      }
    }
  }
}

function historyPage(result: SlackResult<unknown>): SlackResult<SlackHistoryPage> {
  if (!result.ok) return result;
  const parsed = historySchema.safeParse(result.value);
  if (!parsed.success) return { ok: false, error: "unexpected_response" };
  const next = parsed.data.has_more ? parsed.data.response_metadata?.next_cursor || undefined : undefined;
  return { ok: true, value: { messages: parsed.data.messages, ...(next ? { next } : {}) } };
}

/** The error code Slack gave, from the shapes @slack/web-api throws. */
function describe(error: unknown): { error: string; retryAfter?: number; detail?: string } {
  const e = error as { code?: string; data?: { error?: string }; retryAfter?: number; message?: string };
  switch (e?.code) {
    case webApi.ErrorCode.RateLimitedError:
      return { error: "ratelimited", retryAfter: e.retryAfter };
    case webApi.ErrorCode.PlatformError:
      return { error: e.data?.error ?? "unknown_error" };
    case webApi.ErrorCode.RequestError:
      return { error: "request_failed", detail: e.message };
    case webApi.ErrorCode.HTTPError:
      return { error: "http_error", detail: e.message };
    default:
      return { error: "unexpected_error", detail: e?.message ?? String(error) };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
