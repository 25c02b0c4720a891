import { RateLimitedError, StreamUnavailableError, type NativeStream, type PostedMessage, type StreamTask } from "../../contract/surface.js";
import { feedbackBlock } from "./feedback-blocks.js";
import { defuseMassMentions } from "./mrkdwn.js";
import type { SlackApi, SlackResult, StreamChunk } from "./slack-api.js";

/** Errors after which a stream is gone, as opposed to never allowed here. */
const EXPIRED = new Set(["message_not_in_streaming_state", "message_not_found"]);

export interface SlackStreamTarget {
  channel: string;
  threadTs: string;
  /** The asker, who receives the stream (Slack requires it in channels). */
  userId: string;
  teamId: () => Promise<string | undefined>;
}

/**
 * One answer streamed natively in a Slack thread: chat.startStream with the first text or task,
 * chat.appendStream after, chat.stopStream at the end. Slack renders the Markdown itself; mass
 * mentions are defused first, and a tail that may still become one ("<!chan", "@her") waits for
 * the next text. A refusal or an expired stream throws StreamUnavailableError, a rate limit
 * RateLimitedError; the presenter then edits the message with chat.update, or posts.
 */
export class SlackStream implements NativeStream {
  message: (PostedMessage & { channel: string }) | undefined;
  /** Raw Markdown appended but not sent yet (a tail that might be a mention). */
  private held = "";

  constructor(
    private readonly api: SlackApi,
    private readonly target: SlackStreamTarget,
  ) {}

  async append(markdown: string): Promise<void> {
    const text = this.held + markdown;
    const cut = safeEnd(text);
    const ready = text.slice(0, cut);
    if (ready === "") {
      this.held = text;
      return;
    }
    await this.send([{ type: "markdown_text", text: defuseMassMentions(ready) }]);
    this.held = text.slice(cut);
  }

  async task(task: StreamTask): Promise<void> {
    await this.send([{ type: "task_update", ...task }]);
  }

  /**
   * Ends the stream with the held tail and `markdown` (the end of the text: nothing more can
   * complete a mention), and the turn's feedback buttons under it when `feedback` names the turn.
   */
  async stop(markdown = "", options: { feedback?: string } = {}): Promise<void> {
    if (!this.message) return;
    const last = this.held + markdown;
    const rest: StreamChunk[] = last === "" ? [] : [{ type: "markdown_text", text: defuseMassMentions(last) }];
    const blocks = options.feedback !== undefined ? [feedbackBlock(options.feedback)] : undefined;
    this.check(await this.api.stopStream(this.target.channel, this.message.id, rest, blocks));
    this.held = "";
  }

  private async send(chunks: StreamChunk[]): Promise<void> {
    if (this.message) {
      this.check(await this.api.appendStream(this.target.channel, this.message.id, chunks));
      return;
    }
    const { channel, threadTs, userId } = this.target;
    const started = this.check(await this.api.startStream({ channel, threadTs, userId, teamId: await this.target.teamId(), chunks }));
    this.message = { id: started.ts, channel };
  }

  private check<T>(result: SlackResult<T>): T {
    if (result.ok) return result.value;
    if (result.retryAfterSeconds !== undefined) throw new RateLimitedError(result.retryAfterSeconds * 1000, `Slack rate-limited the stream`);
    throw new StreamUnavailableError(EXPIRED.has(result.error) ? "expired" : "refused", `Slack refused the stream: ${result.error}`);
  }
}

/** Where text can be sent without cutting a possible mass mention in two: before an open "<" or a trailing "@word". */
function safeEnd(text: string): number {
  const open = text.lastIndexOf("<");
  if (open !== -1 && text.indexOf(">", open) === -1) return open;
  const at = /@\w*$/.exec(text);
  return at ? at.index : text.length;
}
