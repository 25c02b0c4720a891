import type { App as BoltApp } from "@slack/bolt";
import type { App } from "../../app.js";
import { PLATFORM, type BotThreads } from "./bot-threads.js";
import { routeEvent } from "./routing.js";
import type { TurnStarter } from "./turn-starter.js";

export interface EventDeps {
  app: App;
  threads: BotThreads;
  starter: TurnStarter;
}

/** The workspace: the enterprise on Enterprise Grid, else the team. */
export function workspaceOf(body: { enterprise_id?: unknown; team_id?: unknown }, fallback?: string): string {
  const id = body.enterprise_id || body.team_id || fallback;
  return typeof id === "string" && id !== "" ? id : "unknown";
}

/**
 * Mentions, follow-ups in the bot's threads and DMs. Bolt acknowledges each event before these run;
 * an event id already in SQLite (a retry, also one after a restart) goes no further.
 */
export function registerEventHandlers(bolt: BoltApp, { app, threads, starter }: EventDeps): void {
  const logger = app.logger.child({ platform: PLATFORM });

  bolt.use(async ({ body, next }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === "string" && !app.store.events.firstDelivery(PLATFORM, eventId)) {
      logger.info({ eventId }, "ignored a Slack event delivered again");
      return;
    }
    await next();
  });

  const handle = async ({ event, body, context }: { event: unknown; body: unknown; context: { botUserId?: string } }) => {
    const envelope = body as { enterprise_id?: unknown; team_id?: unknown; event_id?: string };
    const routing = routeEvent(event, {
      workspaceId: workspaceOf(envelope, (event as { team?: string }).team),
      botUserId: context.botUserId,
      allowDms: app.config.SLACK_ALLOW_DMS,
      threads,
    });
    if (routing.action === "ignore") {
      logger.debug({ eventId: envelope.event_id, reason: routing.reason }, "no turn for this Slack event");
      return;
    }
    await starter.start(routing.plan);
  };
  bolt.event("app_mention", handle);
  bolt.event("message", handle);

  bolt.error(async (error) => {
    logger.error({ err: error }, "a Slack event handler failed");
  });
}
