import type { FeedbackAnswer, FeedbackPress } from "../contract/feedback.js";
import type { Logger } from "../log.js";
import type { FeedbackStore, VoteOutcome } from "../store/feedback-store.js";

const ICON = { up: "👍", down: "👎" } as const;

const TEXT: Record<Exclude<VoteOutcome, "unknown">, (icon: string) => string> = {
  recorded: (icon) => `${icon} Thanks, your feedback on this answer was counted.`,
  changed: (icon) => `${icon} Changed: your feedback on this answer is now ${icon}.`,
  unchanged: (icon) => `${icon} Already counted: your feedback on this answer is ${icon}.`,
};

/**
 * 👍 / 👎 pressed under an answer: recorded with the turn (who, which way), one vote per person
 * per answer, a second press changing it. The presser alone is told what became of it.
 */
export class FeedbackDesk {
  constructor(
    private readonly repository: FeedbackStore,
    private readonly logger: Logger,
  ) {}

  async record(press: FeedbackPress): Promise<FeedbackAnswer> {
    try {
      const outcome = await this.repository.vote(press);
      if (outcome === "unknown") {
        this.logger.info({ platform: press.platform, workspaceId: press.workspaceId, turnId: press.turnId }, "feedback on a turn this workspace does not have");
        return { counted: false, text: "This answer can no longer be rated." };
      }
      return { counted: true, text: TEXT[outcome](ICON[press.vote]) };
    } catch (error) {
      this.logger.warn({ err: error, turnId: press.turnId }, "could not record feedback on an answer");
      return { counted: false, text: "Your feedback could not be recorded just now; please try again in a moment." };
    }
  }
}
