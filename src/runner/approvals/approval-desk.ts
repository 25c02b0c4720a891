import { randomUUID } from "node:crypto";
import type { ApprovalVerdict } from "../../agent/types.js";
import type { Logger } from "../../log.js";
import { APPROVAL_TEXT, approvalOutcomeText } from "../../presenter/approval-text.js";
import type { ApprovalDecision, ApprovalStore } from "../../store/approval-store.js";
import type { Actor } from "../../contract/inbound.js";
import type { TurnView } from "../../contract/turn-view.js";
import type { ApprovalAnswer, ApprovalBy, ApprovalOutcome, ApprovalPress, ApprovalPrompt } from "../../contract/approvals.js";

export interface ApprovalDeskOptions {
  store: ApprovalStore;
  logger: Logger;
  /** APPROVAL_BY */
  by: ApprovalBy;
  /** APPROVAL_TIMEOUT_MS */
  timeoutMs: number;
  /** This process run (see InstanceLease): requests it leaves pending expire when it stops or is reaped. */
  instance: string;
}

/** One tool call to approve, as the runner asks for it. */
export interface ApprovalCall {
  turnId: string;
  platform: string;
  workspaceId: string;
  /** The channel the request is shown in (a thread's channel). */
  channelId: string;
  asker: { id: string; name: string };
  tool: string;
  args: unknown;
}

interface Pending {
  prompt: ApprovalPrompt;
  platform: string;
  workspaceId: string;
  settle(outcome: ApprovalOutcome): void;
  /** Decided elsewhere than on the request's own message (the console): its buttons still wait, and make way for the outcome. */
  decidedElsewhere?: boolean;
}

/** Where a press was made: on the platform, whose answer to it replaces the buttons, or in the operator's console. */
export type PressedIn = "platform" | "console";

/**
 * Requests for approval and the presses that answer them. A request is stored, shown through the
 * turn's view, and waits (at most APPROVAL_TIMEOUT_MS, ended at once when the turn is cancelled)
 * for a press by someone who may decide, checked here with the platform's neutral role. Whatever
 * ends a request first (a press, the timeout, the turn stopping) ends it; every end is recorded.
 * Only requests waiting in this process can be decided: after a restart a press finds none.
 */
export class ApprovalDesk {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: ApprovalDeskOptions) {}

  /** Requests waiting for a press now. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Asks for approval of one call and waits for it; rejects with the signal's reason when the turn is cancelled. */
  async request(call: ApprovalCall, view: TurnView, signal: AbortSignal): Promise<ApprovalVerdict> {
    const { store, logger, by, timeoutMs, instance } = this.options;
    signal.throwIfAborted();
    const id = randomUUID();
    const prompt: ApprovalPrompt = { id, tool: call.tool, args: call.args, askerId: call.asker.id, askerName: call.asker.name, by, timeoutMs };
    try {
      await store.create({ ...call, id, askedBy: call.asker.id, requestedAt: Date.now(), instance });
    } catch (error) {
      logger.error({ err: error, tool: call.tool }, "could not store a request for approval; the call does not run");
      return { approved: false, reason: "unavailable" };
    }
    // Registered before it is shown, so that a press however quick finds it.
    const entry: Pending = { prompt, platform: call.platform, workspaceId: call.workspaceId, settle: () => undefined };
    const decided = new Promise<ApprovalOutcome>((resolve) => {
      entry.settle = resolve;
      this.pending.set(id, entry);
    });
    const onAbort = () => this.end(id, { kind: "expired" });
    signal.addEventListener("abort", onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    let outcome: ApprovalOutcome;
    try {
      if (await this.show(view, prompt)) {
        timer = setTimeout(() => this.end(id, { kind: "timed_out" }), timeoutMs);
      } else if (this.end(id, { kind: "expired" })) {
        await this.record(id, "expired", prompt);
        return { approved: false, reason: "unavailable" };
      }
      outcome = await decided;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
    // A press was recorded when it was made, and its platform shows the decision; the rest end here.
    if (outcome.kind === "timed_out" || outcome.kind === "expired") {
      await this.record(id, outcome.kind, prompt);
      await this.close(view, prompt, outcome);
    } else if (entry.decidedElsewhere) {
      await this.close(view, prompt, outcome);
    }
    logger.info({ approvalId: id, tool: call.tool, outcome: outcome.kind, by: "by" in outcome ? outcome.by.id : undefined }, "approval request ended");
    if (outcome.kind === "expired" && signal.aborted) throw signal.reason;
    return outcome.kind === "approved" ? { approved: true } : { approved: false, reason: outcome.kind === "denied" ? "denied" : "timed_out" };
  }

  /**
   * A press on Approve or Deny: decides a waiting request if the presser may, else says why not to
   * them alone. Pressed in the console, the request's message on the platform shows the decision too.
   */
  async decide(press: ApprovalPress, pressedIn: PressedIn = "platform"): Promise<ApprovalAnswer> {
    const pending = this.pending.get(press.approvalId);
    if (!pending || pending.platform !== press.platform || pending.workspaceId !== press.workspaceId) return this.notWaiting(press);
    if (!this.mayDecide(press.actor, pending.prompt)) {
      this.options.logger.info({ approvalId: press.approvalId, user: press.actor.id }, "refused a press on a request for approval");
      return { kind: "private", text: APPROVAL_TEXT.notYours(pending.prompt.by) };
    }
    const outcome: ApprovalOutcome = {
      kind: press.decision === "approve" ? "approved" : "denied",
      by: { id: press.actor.id, name: press.actor.name ?? press.actor.id },
    };
    pending.decidedElsewhere = pressedIn === "console";
    this.end(press.approvalId, outcome);
    await this.record(press.approvalId, outcome.kind, pending.prompt, { by: press.actor.id, via: pressedIn === "console" ? "console" : press.platform });
    return { kind: "decided", text: approvalOutcomeText(pending.prompt, outcome) };
  }

  /** The one rule for who may decide, on every platform: the asker (with APPROVAL_BY=asker) or an admin. */
  private mayDecide(actor: Actor, prompt: ApprovalPrompt): boolean {
    if (actor.isBot) return false;
    if (actor.operator || actor.role === "admin") return true;
    return prompt.by === "asker" && actor.id === prompt.askerId;
  }

  /** A press on a request this process is not waiting for: decided already, or expired (a restart, a timeout). */
  private async notWaiting(press: ApprovalPress): Promise<ApprovalAnswer> {
    let decided = false;
    try {
      const record = await this.options.store.get(press.approvalId);
      decided = record?.platform === press.platform && (record.status === "approved" || record.status === "denied");
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not look up a request for approval");
    }
    this.options.logger.info({ approvalId: press.approvalId, user: press.actor.id }, "a press on a request that no longer waits");
    return { kind: "private", text: decided ? APPROVAL_TEXT.alreadyDecided : APPROVAL_TEXT.expired };
  }

  /** Ends a waiting request with `outcome`; false when something else ended it first. */
  private end(id: string, outcome: ApprovalOutcome): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    pending.settle(outcome);
    return true;
  }

  private async show(view: TurnView, prompt: ApprovalPrompt): Promise<boolean> {
    try {
      return (await view.askApproval?.(prompt)) === true;
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not show a request for approval");
      return false;
    }
  }

  private async close(view: TurnView, prompt: ApprovalPrompt, outcome: ApprovalOutcome): Promise<void> {
    try {
      await view.closeApproval?.(prompt, outcome);
    } catch (error) {
      this.options.logger.warn({ err: error }, "could not show how a request for approval ended");
    }
  }

  /** The audit: who decided what, when; the tool and its arguments are on the request's row. A store that fails leaves it in the log. */
  private async record(
    id: string,
    status: "approved" | "denied" | "timed_out" | "expired",
    prompt: ApprovalPrompt,
    decision: ApprovalDecision = {},
  ): Promise<void> {
    try {
      await this.options.store.close(id, status, decision);
    } catch (error) {
      this.options.logger.error(
        { err: error, approvalId: id, status, decidedBy: decision.by, decidedVia: decision.via, tool: prompt.tool, args: prompt.args },
        "could not record a decision on a request for approval",
      );
    }
  }
}
