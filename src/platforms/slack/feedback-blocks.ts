import type { types } from "@slack/bolt";

export const FEEDBACK_ACTION = "answer_feedback";

/** Slack's cap on a section's text: a longer answer part is shown in several sections. */
const SECTION_LIMIT = 3_000;

/** Slack's feedback buttons (a context_actions block) under an answer: each button's value names the turn and the vote. */
export function feedbackBlock(turnId: string): types.KnownBlock {
  return {
    type: "context_actions",
    block_id: `feedback:${turnId}`,
    elements: [
      {
        type: "feedback_buttons",
        action_id: FEEDBACK_ACTION,
        positive_button: { text: { type: "plain_text", text: "👍" }, accessibility_label: "This answer was helpful", value: `${turnId}:up` },
        negative_button: { text: { type: "plain_text", text: "👎" }, accessibility_label: "This answer was not helpful", value: `${turnId}:down` },
      },
    ],
  };
}

/** Markdown already in mrkdwn as section blocks, cut at line ends below Slack's cap on a section's text. */
export function sectionBlocks(mrkdwn: string): types.KnownBlock[] {
  const sections: types.KnownBlock[] = [];
  let rest = mrkdwn;
  while (rest !== "") {
    let cut = rest.length <= SECTION_LIMIT ? rest.length : rest.lastIndexOf("\n", SECTION_LIMIT);
    if (cut <= 0) cut = SECTION_LIMIT;
    sections.push({ type: "section", text: { type: "mrkdwn", text: rest.slice(0, cut) } });
    rest = rest.slice(cut).replace(/^\n/, "");
  }
  return sections;
}

/** An answer's last message as blocks: its text (with blocks, `text` is only the notification) in sections, then the feedback buttons. */
export function answerBlocks(mrkdwn: string, turnId: string): types.KnownBlock[] {
  return [...sectionBlocks(mrkdwn), feedbackBlock(turnId)];
}

/** The turn and the vote a pressed feedback button carries; undefined for any other value. */
export function readFeedbackValue(value: string): { turnId: string; vote: "up" | "down" } | undefined {
  const match = /^([\w-]{1,80}):(up|down)$/.exec(value);
  return match ? { turnId: match[1]!, vote: match[2] as "up" | "down" } : undefined;
}
