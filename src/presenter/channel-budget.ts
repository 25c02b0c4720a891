/**
 * How many writes (posts and edits) one channel gets from the bot within a window, shared by every
 * turn and every kind of message there. Writes a user must see (tool steps, an answer's first and
 * final state) are only counted; the in-between edits of streamed answers wait for a free slot,
 * so however many answers stream in a busy channel, their edits never add up to a storm.
 *
 * Discord allows about five messages per five seconds in one channel; the default, five writes
 * per five edit intervals, holds a channel to that.
 */
export class ChannelBudget {
  private readonly writes = new Map<string, number[]>();

  constructor(
    private readonly writesPerWindow: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts a write that happens now, whatever the budget says. */
  record(channelId: string): void {
    const recent = this.recent(channelId);
    recent.push(this.now());
    if (recent.length > this.writesPerWindow) recent.shift();
  }

  /** When an optional write may happen in this channel: now, or once the oldest write in the window leaves it. */
  freeAt(channelId: string): number {
    const recent = this.recent(channelId);
    if (recent.length < this.writesPerWindow) return this.now();
    return recent[0]! + this.windowMs;
  }

  /** Channels held (for the leak checks): idle ones are dropped as they are looked at. */
  get size(): number {
    return this.writes.size;
  }

  private recent(channelId: string): number[] {
    const cutoff = this.now() - this.windowMs;
    let list = this.writes.get(channelId);
    if (!list) {
      if (this.writes.size >= MAX_CHANNELS) this.dropIdle(cutoff);
      list = [];
      this.writes.set(channelId, list);
    }
    while (list.length > 0 && list[0]! <= cutoff) list.shift();
    return list;
  }

  private dropIdle(cutoff: number): void {
    for (const [channel, list] of this.writes) if ((list.at(-1) ?? 0) <= cutoff) this.writes.delete(channel);
  }
}

/** Channels remembered before idle ones are dropped (a bounded map, whatever the number of channels). */
const MAX_CHANNELS = 10_000;
