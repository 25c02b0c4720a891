/** A press on an answer's 👍 or 👎, as the platform received it. */
export interface FeedbackPress {
  platform: string;
  /** The workspace the press came from (a vote counts only on that workspace's answers). */
  workspaceId: string;
  /** The turn whose answer carries the buttons (the surface put it in them). */
  turnId: string;
  vote: "up" | "down";
  userId: string;
}

/** What the presser alone is shown: that the vote was counted (or changed), or why not. */
export interface FeedbackAnswer {
  text: string;
  /** The vote stands (the platform may show the pressed button as chosen). */
  counted: boolean;
}
