import type { types } from "@slack/bolt";

export const APPROVE_ACTION = "approval_approve";
export const DENY_ACTION = "approval_deny";

const section = (mrkdwn: string): types.KnownBlock => ({ type: "section", text: { type: "mrkdwn", text: mrkdwn } });

/** A request for approval in Block Kit: its text, then Approve and Deny buttons carrying the request's id. */
export function approvalBlocks(mrkdwn: string, approvalId: string): types.KnownBlock[] {
  return [
    section(mrkdwn),
    {
      type: "actions",
      block_id: `approval:${approvalId}`,
      elements: [
        { type: "button", action_id: APPROVE_ACTION, style: "primary", text: { type: "plain_text", text: "Approve" }, value: approvalId },
        { type: "button", action_id: DENY_ACTION, style: "danger", text: { type: "plain_text", text: "Deny" }, value: approvalId },
      ],
    },
  ];
}

/** The request once it ended: its outcome alone, the buttons gone. */
export const settledBlocks = (mrkdwn: string): types.KnownBlock[] => [section(mrkdwn)];
