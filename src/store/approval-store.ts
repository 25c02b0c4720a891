export type ApprovalStatus = "pending" | "approved" | "denied" | "timed_out" | "expired";

export interface ApprovalRecord {
  id: string;
  platform: string;
  workspaceId: string;
  channelId: string;
  turnId: string;
  tool: string;
  args: unknown;
  /** The user whose question led to the call. */
  askedBy: string;
  status: ApprovalStatus;
  requestedAt: number;
  decidedBy?: string;
  decidedAt?: number;
  /** Where it was decided: the platform's name, or "console". */
  decidedVia?: string;
  /** The process run that waits for the decision (see InstanceStore): when it is reaped, its pending requests expire. */
  instance: string;
}

/** How a request ended: who decided and where (none when it timed out or expired), and when (now by default). */
export interface ApprovalDecision {
  by?: string;
  via?: string;
  at?: number;
}

/** Requests to approve a tool call, and the decisions on them: the approvals audit. */
export interface ApprovalStore {
  create(request: Omit<ApprovalRecord, "status" | "decidedBy" | "decidedAt" | "decidedVia">): Promise<void>;
  /** Records the end of a pending request; false when it had already ended (nothing changes then). */
  close(id: string, status: Exclude<ApprovalStatus, "pending">, decision?: ApprovalDecision): Promise<boolean>;
  get(id: string): Promise<ApprovalRecord | undefined>;
}

/** The most characters of a request's arguments the audit keeps (steps keep as many). */
export const MAX_STORED_ARGS_CHARS = 8_000;

/** Stored arguments back as they were; text that is not JSON (cut to the cap) as it is. */
export function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
