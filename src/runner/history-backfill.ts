import type { ChannelHistory, PastMessage } from "../contract/channel-history.js";
import type { ChatSurface } from "../contract/surface.js";
import type { Logger } from "../log.js";
import { abortableSleep } from "../store/abortable-sleep.js";
import type { Backfill, BackfillStore } from "../store/backfill-store.js";
import type { ChannelRef } from "../store/channel-settings-store.js";
import type { HistoryEntry, HistoryStore } from "../store/history-store.js";

export interface BackfillOptions {
  repository: BackfillStore;
  index: Pick<HistoryStore, "add">;
  logger: Logger;
  /** This process run's id: it holds the backfills it reads. */
  owner: string;
  /** The pause between two pages: the platforms' history calls are rate-limited, and turns come first. */
  pageIntervalMs?: number;
  /** A progress message every this many pages. */
  progressEveryPages?: number;
}

const DAY_MS = 86_400_000;
/** How long a process holds a backfill without a page written; then another may take it over. */
const LEASE_MS = 120_000;
const DEFAULT_PAGE_INTERVAL_MS = 1_200;
const DEFAULT_PROGRESS_PAGES = 10;
/** Failed page reads in a row before the backfill stops (each waits longer: 5, 10, 20 seconds). */
const MAX_FAILURES = 3;
const RETRY_MS = 5_000;

interface Outlet {
  surface: ChatSurface;
  history: ChannelHistory;
}

const keyOf = (channel: ChannelRef) => JSON.stringify([channel.platform, channel.workspaceId, channel.channelId]);
const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Backfills of a channel's history (issue 24 §2): earlier messages read through the platform's
 * history API, a page at a time with a pause between pages, into the history index, in the
 * background (a turn never waits for it). Each page's cursor is stored as the page is indexed, so a
 * backfill goes on after a restart (when its platform connects again) from the last page written;
 * one process reads a backfill at a time. Progress is posted in the channel.
 */
export class HistoryBackfills {
  private readonly outlets = new Map<string, Outlet>();
  private readonly running = new Map<string, { run: Promise<void>; backfill: Backfill }>();
  private readonly stopping = new AbortController();

  constructor(private readonly options: BackfillOptions) {}

  /** A platform connected: backfills can be read through it, and those of its that no process holds go on. */
  attach(surface: ChatSurface, history: ChannelHistory | undefined): void {
    if (!history) return;
    this.outlets.set(surface.platform, { surface, history });
    void (history.ready ?? Promise.resolve()).then(() => this.resume(surface.platform));
  }

  /** Starts reading the last `days` days of a channel; the answer says so (or why not) at once. */
  async start(channel: ChannelRef, days: number, actorId: string): Promise<{ ok: boolean; text: string }> {
    const outlet = this.outlets.get(channel.platform);
    if (!outlet) return { ok: false, text: "I cannot read earlier messages on this platform." };
    const now = Date.now();
    if (!(await this.options.repository.begin(channel, actorId, now - days * DAY_MS, now))) {
      const current = await this.options.repository.get(channel);
      return { ok: false, text: `A backfill is already running here (${current?.read ?? 0} message(s) read so far).` };
    }
    const backfill = await this.options.repository.get(channel);
    if (backfill) this.launch(backfill, outlet, false);
    return {
      ok: true,
      text: `I'm reading the last ${days} day(s) of this channel into my search index, in the background, within the platform's rate limits; I'll post the progress here.`,
    };
  }

  /** Resolves once no backfill runs in this process (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((running) => running.run));
  }

  /**
   * Stops reading: each running backfill ends its page and lets go (its cursor stays, for the next
   * start). One whose page is still being read after `graceMs` is let go of as it is: that page is
   * read again by whoever goes on (what it would write then is refused: it no longer holds it).
   */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]).finally(() => clearTimeout(timer));
    for (const { backfill } of this.running.values()) {
      await this.options.repository
        .release(backfill, this.options.owner)
        .catch((error: unknown) => this.options.logger.warn({ err: error, channel: backfill.channelId }, "could not let go of a history backfill"));
    }
  }

  private async resume(platform: string): Promise<void> {
    try {
      for (const backfill of await this.options.repository.resumable(platform, Date.now())) {
        const outlet = this.outlets.get(platform);
        if (outlet) this.launch(backfill, outlet, true);
      }
    } catch (error) {
      this.options.logger.warn({ err: error, platform }, "could not look for history backfills to resume");
    }
  }

  private launch(backfill: Backfill, outlet: Outlet, resumed: boolean): void {
    const key = keyOf(backfill);
    if (this.running.has(key) || this.stopping.signal.aborted) return;
    const run = this.run(backfill, outlet, resumed)
      .catch((error: unknown) => this.options.logger.warn({ err: error, channel: backfill.channelId }, "a history backfill stopped"))
      .finally(() => this.running.delete(key));
    this.running.set(key, { run, backfill });
  }

  private async run(backfill: Backfill, outlet: Outlet, resumed: boolean): Promise<void> {
    const { repository, owner, logger } = this.options;
    const leaseNow = () => repository.claim(backfill, owner, Date.now(), LEASE_MS);
    if (!(await leaseNow())) return;
    let { cursor, read, oldestAt } = backfill;
    if (resumed) await this.say(outlet, backfill, `Resuming the history backfill here (${read} message(s) read so far).`);
    let pages = 0;
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      let page;
      try {
        page = await outlet.history.page({ workspaceId: backfill.workspaceId, channelId: backfill.channelId, cursor, since: backfill.since });
        failures = 0;
      } catch (error) {
        logger.warn({ err: error, channel: backfill.channelId, failures: failures + 1 }, "could not read a page of a channel's history");
        if (++failures >= MAX_FAILURES) {
          await repository.finish(backfill, owner, "failed", Date.now());
          await this.say(outlet, backfill, `The history backfill stopped: the platform would not give me this channel's earlier messages (${read} read).`);
          return;
        }
        await this.pause(RETRY_MS * 2 ** (failures - 1));
        if (!(await leaseNow())) return;
        continue;
      }
      const entries = page.messages
        .filter((message) => !message.byBot && message.time >= backfill.since && message.text.trim())
        .map((m) => entryOf(backfill, m));
      await this.options.index.add(entries, { keepIndexed: true });
      read += entries.length;
      const oldest = Math.min(...entries.map((entry) => entry.time));
      if (entries.length > 0) oldestAt = Math.min(oldest, oldestAt ?? oldest);
      // A cursor written with the page: a restart goes on from the next one.
      if (!(await repository.advance(backfill, owner, { cursor: page.next, read: entries.length, oldestAt }, Date.now()))) return;
      pages++;
      cursor = page.next;
      if (!cursor) {
        await repository.finish(backfill, owner, "done", Date.now());
        const since = oldestAt === undefined ? "" : `, back to ${day(oldestAt)}`;
        await this.say(outlet, backfill, `History backfill done: ${read} earlier message(s) of this channel are searchable now${since}.`);
        return;
      }
      if (pages % (this.options.progressEveryPages ?? DEFAULT_PROGRESS_PAGES) === 0) {
        await this.say(outlet, backfill, `History backfill: ${read} message(s) read so far${oldestAt === undefined ? "" : `, back to ${day(oldestAt)}`}…`);
      }
      await this.pause(this.options.pageIntervalMs ?? DEFAULT_PAGE_INTERVAL_MS);
      if (!(await leaseNow())) return;
    }
    await repository.release(backfill, owner);
  }

  private pause(ms: number): Promise<void> {
    return abortableSleep(ms, this.stopping.signal).catch(() => undefined);
  }

  /** Progress in the channel; a post that fails costs only the message. */
  private async say(outlet: Outlet, channel: ChannelRef, text: string): Promise<void> {
    try {
      await outlet.surface.post({ location: { channelId: channel.channelId } }, outlet.surface.render(text), { kind: "answer" });
    } catch (error) {
      this.options.logger.warn({ err: error, channel: channel.channelId }, "could not post a history backfill's progress");
    }
  }
}

function entryOf(channel: ChannelRef, message: PastMessage): HistoryEntry {
  return {
    platform: channel.platform,
    workspaceId: channel.workspaceId,
    channelId: channel.channelId,
    ...(message.threadId ? { threadId: message.threadId } : {}),
    messageId: message.messageId,
    kind: "message",
    authorId: message.authorId,
    authorName: message.authorName,
    text: message.text,
    ...(message.link ? { link: message.link } : {}),
    time: message.time,
  };
}
