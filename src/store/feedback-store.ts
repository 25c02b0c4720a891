/** A person's verdict on one answer: 👍 or 👎. */
export type Vote = "up" | "down";

export interface VoteRecord {
  platform: string;
  /** The workspace the press came from: a vote counts only on a turn of that workspace. */
  workspaceId: string;
  turnId: string;
  userId: string;
  vote: Vote;
  /** Epoch ms; now unless given. */
  at?: number;
}

/**
 * recorded: the person's first vote on the answer. changed: they had voted the other way.
 * unchanged: the same vote again. unknown: no turn of that id in that workspace.
 */
export type VoteOutcome = "recorded" | "changed" | "unchanged" | "unknown";

/** Votes of one group (a model or a channel). */
export interface FeedbackRow {
  key: string;
  up: number;
  down: number;
}

/** The votes on answers (the turn audit keeps each one): one per person per answer, the last press counting. */
export interface FeedbackStore {
  vote(record: VoteRecord): Promise<VoteOutcome>;
}
