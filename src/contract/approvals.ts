import type { Actor } from "./inbound.js";

/** Who may approve or deny (APPROVAL_BY): the asker or an admin, or admins only. */
export type ApprovalBy = "asker" | "admin";

/** A tool call waiting for approval, as the turn's view shows it. */
export interface ApprovalPrompt {
  /** Carried by the platform's buttons, and by the press that comes back. */
  id: string;
  tool: string;
  /** The arguments as the model sent them, already shortened like a step's. */
  args: unknown;
  askerId: string;
  askerName: string;
  by: ApprovalBy;
  timeoutMs: number;
}

/** How a request for approval ended. */
export type ApprovalOutcome =
  | { kind: "approved" | "denied"; by: { id: string; name: string } }
  | { kind: "timed_out" }
  /** The turn stopped before anyone decided (the bot is shutting down). */
  | { kind: "expired" };

/** A press on Approve or Deny (or a typed yes/no), as the platform received it. */
export interface ApprovalPress {
  platform: string;
  workspaceId: string;
  approvalId: string;
  decision: "approve" | "deny";
  /** Who pressed, with the role the platform gives them in this workspace. */
  actor: Actor;
}

/**
 * What the platform does with a press. decided: the request's buttons make way for `text` (the
 * decision and who made it), shown to everyone; private: `text` goes to the presser alone (a
 * refusal, or a request that expired) and nothing changes.
 */
export type ApprovalAnswer = { kind: "decided"; text: string } | { kind: "private"; text: string };
