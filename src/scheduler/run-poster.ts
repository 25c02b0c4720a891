import type { ChatSurface } from "../contract/surface.js";
import type { PlatformInbox } from "../contract/link.js";
import type { PlatformOutlets } from "../runner/platform-link.js";
import type { ScheduledTask } from "../store/schedule-store.js";

/** How one run ended, as its history records it. */
export interface RunOutcome {
  status: "ok" | "failed" | "paused";
  tokens: number;
  link?: string;
  detail?: string;
}

const preview = (text: string, chars = 300) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/**
 * Runs a task as a turn through the platform it belongs to, without knowing the platform: posts a
 * new top-level message in the task's channel with the platform's surface, then hands that message
 * to the platform's inbox like a question from the task's creator. The rest is every turn's: the
 * channel's tool policy and approvals, budgets, steps in the thread opened on the post.
 */
export class RunPoster implements PlatformOutlets {
  private readonly outlets = new Map<string, { surface: ChatSurface; inbox: PlatformInbox }>();
  /** Called once a platform connected (its tasks may be due already). */
  onAttach?: () => void;

  attach(surface: ChatSurface, inbox: PlatformInbox): void {
    this.outlets.set(surface.platform, { surface, inbox });
    this.onAttach?.();
  }

  /** Whether this process can run the platform's tasks (its adapter connected here). */
  serves(platform: string): boolean {
    return this.outlets.has(platform);
  }

  async run(task: ScheduledTask, dueAt: number): Promise<RunOutcome> {
    const outlet = this.outlets.get(task.platform);
    if (!outlet) return { status: "failed", tokens: 0, detail: `the ${task.platform} platform is not connected` };
    const { surface, inbox } = outlet;
    let posted: { id: string };
    try {
      posted = await surface.post(
        { location: { channelId: task.channelId } },
        surface.render(`⏰ Scheduled task \`${task.id}\` by <@${task.creator}>: ${preview(task.task)}`),
        { kind: "answer" },
      );
    } catch (error) {
      // A deleted channel, or a bot no longer in it: nothing can run there until someone fixes it.
      return { status: "paused", tokens: 0, detail: `could not post in the channel (${(error as Error).message.slice(0, 200)})` };
    }
    const link = `<#${task.channelId}> message ${posted.id}`;
    const receipt = await inbox.receive({
      platform: task.platform,
      workspaceId: task.workspaceId,
      channelId: task.channelId,
      messageId: posted.id,
      eventId: `schedule:${task.id}:${dueAt}`,
      isDm: false,
      actor: { id: task.creator, role: "member", isBot: false },
      text: task.task,
      mentionsBot: true,
      viaCommand: true,
      attachments: [],
      isEdit: false,
      isSystem: false,
      isOwn: false,
      ownConversation: `schedule:${task.id}:${dueAt}`,
    });
    if (!("turnId" in receipt))
      return { status: "failed", tokens: 0, link, detail: `the run was not taken (${"reason" in receipt ? receipt.reason : receipt.status})` };
    const tokens = receipt.tokens ?? 0;
    if (receipt.status === "answered") return { status: "ok", tokens, link };
    return { status: "failed", tokens, link, detail: `${receipt.status}: ${receipt.outcome}` };
  }

  /** Tells a task's creator something in the task's channel (the bot cannot assume it may DM them). */
  async tell(task: ScheduledTask, markdown: string): Promise<void> {
    const outlet = this.outlets.get(task.platform);
    if (!outlet) return;
    await outlet.surface.post({ location: { channelId: task.channelId } }, outlet.surface.render(`<@${task.creator}> ${markdown}`), {
      kind: "answer",
      notify: task.creator,
    });
  }
}
