import type { Logger } from "../log.js";
import type { ChatSurface, Destination } from "../contract/surface.js";
import type { InstanceStore } from "../store/store.js";
import type { NoticeTarget } from "../store/turn-records.js";
import { RUNNER_TEXT } from "./turn-replies.js";

/** Notices taken per look: a crash leaves as many as it had turns running, a few at a time. */
const NOTICES_PER_LOOK = 20;

/**
 * Tells the askers of turns a dead process left unfinished that the bot restarted, where their
 * question was: whichever process reaps the dead one records a notice per turn (see
 * InstanceStore.reap), and a process connected to the turn's platform takes it and posts it.
 * Each notice is taken by one process and posted at most once.
 */
export class RestartNotices {
  private readonly surfaces = new Map<string, ChatSurface>();
  private looking?: Promise<void>;

  constructor(
    private readonly instances: InstanceStore,
    private readonly logger: Logger,
  ) {}

  /** A platform's surface, once it is connected: its notices are posted from then on. */
  connect(surface: ChatSurface): void {
    this.surfaces.set(surface.platform, surface);
  }

  /** Posts the notices waiting for the connected platforms (at each lease renewal); never rejects. */
  deliver(): Promise<void> {
    this.looking ??= this.deliverWaiting()
      .catch((error: unknown) => this.logger.warn({ err: error }, "could not look for askers to tell that the bot restarted"))
      .finally(() => (this.looking = undefined));
    return this.looking;
  }

  private async deliverWaiting(): Promise<void> {
    if (this.surfaces.size === 0) return;
    for (;;) {
      const notices = await this.instances.takeRestartNotices([...this.surfaces.keys()], NOTICES_PER_LOOK);
      for (const notice of notices) {
        const surface = this.surfaces.get(notice.platform);
        if (!surface) continue;
        try {
          await surface.post(destinationOf(surface, notice.target), surface.render(`⚠️ ${RUNNER_TEXT.shutdown}`), {
            kind: "answer",
            notify: notice.target.askerId,
          });
          this.logger.info({ platform: notice.platform, channel: notice.target.location.channelId }, "told an asker that the bot restarted before finishing");
        } catch (error) {
          this.logger.warn({ err: error, platform: notice.platform }, "could not tell an asker that the bot restarted before finishing");
        }
      }
      if (notices.length < NOTICES_PER_LOOK) return;
    }
  }
}

/** Where the turn's answer would have gone: the question's thread where answers go in threads, else a reply to it. */
function destinationOf(surface: ChatSurface, target: NoticeTarget): Destination {
  const { location, messageId, isDm } = target;
  const inThread = location.threadId !== undefined || location.parentChannelId !== undefined;
  if (surface.answerInThread && !inThread && !isDm) return { location: { channelId: location.channelId, threadId: messageId } };
  return { location, replyTo: messageId };
}
