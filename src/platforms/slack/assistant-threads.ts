import type { App as BoltApp } from "@slack/bolt";
import { z } from "zod";
import type { Logger } from "../../log.js";
import { threadTitle } from "../../presenter/turn-presenter.js";
import { PLATFORM, placeOf, workspaceOf, type SlackEnvelope } from "./inbound.js";
import type { SlackContext, WorkspaceSession } from "./workspace-sessions.js";

/** Threads opened and not yet named, remembered at most this many (the oldest are forgotten: they stay "New chat"). */
const MAX_UNTITLED = 10_000;
/** Slack shows a short title in the list of threads. */
const TITLE_CHARS = 60;

const startedSchema = z.object({
  assistant_thread: z.object({ user_id: z.string(), channel_id: z.string(), thread_ts: z.string() }),
});

/**
 * Slack's messaging surface for AI apps (the assistant threads of the bot's DM): a new thread is
 * offered up to four prompts built from the tools enabled in the workspace
 * (assistant.threads.setSuggestedPrompts), and is named after its first question
 * (assistant.threads.setTitle). The questions themselves come as DM messages, answered as any.
 */
export class AssistantThreads {
  private readonly untitled = new Set<string>();

  constructor(private readonly deps: { logger: Logger; sessionOf(context: SlackContext): WorkspaceSession | undefined }) {}

  register(bolt: BoltApp): void {
    bolt.event("assistant_thread_started", async ({ event, body, context }) => {
      const parsed = startedSchema.safeParse(event);
      const session = this.deps.sessionOf(context as SlackContext);
      if (!parsed.success || !session) return this.deps.logger.warn("an assistant thread started without a thread or a bot token; nothing offered");
      const { user_id: userId, channel_id: channel, thread_ts: threadTs } = parsed.data.assistant_thread;
      this.remember(`${channel}/${threadTs}`);
      const place = placeOf(body as SlackEnvelope);
      const prompts = await session.link.suggestedPrompts({
        platform: PLATFORM,
        workspaceId: workspaceOf(place),
        channelId: channel,
        isDm: true,
        actor: await session.actorOf(userId, place),
      });
      await session.api.setSuggestedPrompts(channel, threadTs, prompts);
    });
    // The channel the user looks at beside the thread changed: nothing the bot keeps depends on it.
    bolt.event("assistant_thread_context_changed", async () => {});
  }

  /** A DM message in a thread: the first one after the thread started names it. */
  titleFrom(session: WorkspaceSession, channel: string, threadTs: string, text: string): void {
    if (!this.untitled.delete(`${channel}/${threadTs}`)) return;
    void session.api.setThreadTitle(channel, threadTs, threadTitle(text, TITLE_CHARS));
  }

  private remember(key: string): void {
    if (this.untitled.size >= MAX_UNTITLED) this.untitled.delete(this.untitled.values().next().value!);
    this.untitled.add(key);
  }
}
