/** A message as people in Slack would see it now (after any chat.update). */
export interface FakeMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  /** Every text the message had, first to last. */
  versions: string[];
  broadcast: boolean;
  user: string;
  /** Streamed natively (chat.startStream): its text is Markdown, and tool steps show as tasks. */
  streamed?: {
    open: boolean;
    lastWriteAt: number;
    recipientUser?: string;
    recipientTeam?: string;
    tasks: Map<string, { title: string; status: string; output?: string }[]>;
  };
  /** Block Kit blocks as they are now (chat.update replaces them when it sends blocks). */
  blocks: any[];
  /** The blocks the message was posted with (its buttons, even once an update took them away). */
  postedBlocks: any[];
}

/**
 * The messages of the fake Slack's channels and threads, as people would see them: what
 * chat.postMessage, chat.update, chat.delete and reactions.add/remove do to them, with Slack's
 * errors for what it refuses.
 */
export class ChannelMessages {
  readonly messages: FakeMessage[] = [];
  private readonly reactions = new Map<string, Set<string>>();
  private tsCounter = 0;
  private readonly tsBase = Math.floor(Date.now() / 1000);

  constructor(
    private readonly bot: { userId: string; botId: string },
    /**
     * Longest text accepted before msg_too_long. Slack asks for at most 4,000 characters per
     * message (and truncates far longer ones), so the fake holds to that by default.
     */
    private readonly maxTextLength: number,
  ) {}

  /** A ts as Slack would give one: increasing, unique. */
  nextTs(): string {
    return `${this.tsBase}.${String(++this.tsCounter).padStart(6, "0")}`;
  }

  /** Replies in a thread, oldest first (the root itself excluded). */
  thread(channel: string, threadTs: string): FakeMessage[] {
    return this.messages.filter((message) => message.channel === channel && message.threadTs === threadTs);
  }

  /** Messages posted at the top of a channel. */
  topLevel(channel: string): FakeMessage[] {
    return this.messages.filter((message) => message.channel === channel && message.threadTs === undefined);
  }

  reactionsOn(channel: string, ts: string): string[] {
    return [...(this.reactions.get(`${channel}/${ts}`) ?? [])];
  }

  post(params: Record<string, any>): Record<string, any> {
    if (!params.channel) return { ok: false, error: "channel_not_found" };
    const text = typeof params.text === "string" ? params.text : "";
    if (text.trim() === "") return { ok: false, error: "no_text" };
    if (text.length > this.maxTextLength) return { ok: false, error: "msg_too_long" };
    const threadTs = params.thread_ts ? String(params.thread_ts) : undefined;
    const message: FakeMessage = {
      channel: String(params.channel),
      ts: this.nextTs(),
      threadTs,
      text,
      versions: [text],
      broadcast: threadTs !== undefined && isTrue(params.reply_broadcast),
      user: this.bot.userId,
      blocks: blocksOf(params.blocks) ?? [],
      postedBlocks: blocksOf(params.blocks) ?? [],
    };
    this.messages.push(message);
    return {
      ok: true,
      channel: message.channel,
      ts: message.ts,
      message: { type: "message", text, user: this.bot.userId, bot_id: this.bot.botId, ts: message.ts, thread_ts: threadTs },
    };
  }

  update(params: Record<string, any>): Record<string, any> {
    const message = this.messages.find((m) => m.channel === params.channel && m.ts === params.ts);
    if (!message) return { ok: false, error: "message_not_found" };
    const text = typeof params.text === "string" ? params.text : "";
    if (text.length > this.maxTextLength) return { ok: false, error: "msg_too_long" };
    message.text = text;
    message.versions.push(text);
    message.blocks = blocksOf(params.blocks) ?? message.blocks;
    return { ok: true, channel: message.channel, ts: message.ts, text };
  }

  remove(params: Record<string, any>): Record<string, any> {
    const index = this.messages.findIndex((m) => m.channel === params.channel && m.ts === params.ts);
    if (index === -1) return { ok: false, error: "message_not_found" };
    this.messages.splice(index, 1);
    return { ok: true, channel: params.channel, ts: params.ts };
  }

  react(add: boolean, params: Record<string, any>): Record<string, any> {
    const key = `${params.channel}/${params.timestamp}`;
    const names = this.reactions.get(key) ?? new Set<string>();
    this.reactions.set(key, names);
    const name = String(params.name ?? "");
    if (add) {
      if (names.has(name)) return { ok: false, error: "already_reacted" };
      names.add(name);
    } else if (!names.delete(name)) {
      return { ok: false, error: "no_reaction" };
    }
    return { ok: true };
  }
}

/** Blocks as the Web API client sends them: a JSON string in a form, an array in JSON. */
function blocksOf(value: unknown): any[] | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? JSON.parse(value) : (value as any[]);
}

function isTrue(value: unknown): boolean {
  return value === true || value === "true" || value === "1";
}
