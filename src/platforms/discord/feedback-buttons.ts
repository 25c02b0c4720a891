import { ButtonStyle, ComponentType } from "discord.js";
import type { ButtonRow } from "./button-row.js";

/** The custom id of a feedback button: "feedback:<turn id>:up" or "feedback:<turn id>:down" (at most 100 characters). */
const CUSTOM_ID = /^feedback:([\w-]{1,80}):(up|down)$/;

/** 👍 and 👎 under an answer, as one row of message components carrying the turn's id. */
export function feedbackButtons(turnId: string): ButtonRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `feedback:${turnId}:up`, emoji: { name: "👍" } },
      { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: `feedback:${turnId}:down`, emoji: { name: "👎" } },
    ],
  };
}

/** The turn and the vote a pressed button carries; undefined for other buttons. */
export function readFeedbackButton(customId: string): { turnId: string; vote: "up" | "down" } | undefined {
  const match = CUSTOM_ID.exec(customId);
  return match ? { turnId: match[1]!, vote: match[2] as "up" | "down" } : undefined;
}
