import type { ChatSurface, Destination, MessageRef, PostedMessage, PostOptions } from "../../src/contract/surface.js";
import type { Location } from "../../src/contract/inbound.js";

export interface SurfaceCall {
  op: "post" | "edit" | "remove" | "file" | "working" | "done working" | "thread";
  id?: string;
  text?: string;
  to?: Destination;
  options?: PostOptions;
  /** When the call was made (`performance.now()`). */
  at: number;
}

/** A chat platform made of memory: records every call the presenter makes, in order, as a platform would receive them. */
export class RecordingSurface implements ChatSurface {
  readonly platform = "test";
  readonly calls: SurfaceCall[] = [];
  private next = 0;
  /** Set by a test to make an edit fail (it is recorded first, as a platform would log the refused request). */
  failEdit?: (message: PostedMessage, text: string, options: PostOptions) => void;

  constructor(
    readonly settings: Partial<Pick<ChatSurface, "messageLimit" | "answerInThread" | "holdsQuickSteps">> & { threads?: boolean; files?: boolean } = {},
  ) {}

  get messageLimit() {
    return this.settings.messageLimit ?? 2_000;
  }
  get answerInThread() {
    return this.settings.answerInThread ?? false;
  }
  get holdsQuickSteps() {
    return this.settings.holdsQuickSteps ?? true;
  }

  render(markdown: string): string {
    return markdown;
  }

  async post(to: Destination, text: string, options: PostOptions): Promise<PostedMessage> {
    const id = `m${++this.next}`;
    this.calls.push({ op: "post", id, text, to, options, at: performance.now() });
    return { id };
  }

  async edit(message: PostedMessage, text: string, options: PostOptions): Promise<void> {
    this.calls.push({ op: "edit", id: message.id, text, options, at: performance.now() });
    this.failEdit?.(message, text, options);
  }

  async remove(message: PostedMessage): Promise<void> {
    this.calls.push({ op: "remove", id: message.id, at: performance.now() });
  }

  startWorking(): () => Promise<void> {
    this.calls.push({ op: "working", at: performance.now() });
    return async () => void this.calls.push({ op: "done working", at: performance.now() });
  }

  get openThread() {
    if (this.settings.threads === false) return undefined;
    return async (on: MessageRef): Promise<Location> => {
      this.calls.push({ op: "thread", id: on.messageId, at: performance.now() });
      return { channelId: `thread-of-${on.messageId}`, parentChannelId: on.location.channelId };
    };
  }

  get postFile() {
    if (!this.settings.files) return undefined;
    return async (to: Destination, file: { name: string; text: string }): Promise<void> => {
      this.calls.push({ op: "file", to, text: `${file.name}: ${file.text.length} characters`, at: performance.now() });
    };
  }

  /** The calls, each as one short line: "post step ✅ …", "edit m1 …", "post answer …". */
  get transcript(): string[] {
    return this.calls.map((call) =>
      [call.op, call.options?.kind, call.op === "edit" || call.op === "thread" ? call.id : undefined, call.text?.slice(0, 80)].filter(Boolean).join(" "),
    );
  }
}
