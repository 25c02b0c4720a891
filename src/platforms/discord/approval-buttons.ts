import { ButtonStyle, ComponentType } from "discord.js";
import type { ButtonRow } from "./button-row.js";

/** The custom id of an approval button: "approval:<id>:approve" or "approval:<id>:deny" (at most 100 characters). */
const CUSTOM_ID = /^approval:([\w-]{1,80}):(approve|deny)$/;

/** Approve and Deny, as one row of message components carrying the request's id. */
export function approvalButtons(approvalId: string): ButtonRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: `approval:${approvalId}:approve`, label: "Approve" },
      { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: `approval:${approvalId}:deny`, label: "Deny" },
    ],
  };
}

/** The request and the decision a pressed button carries; undefined for other buttons. */
export function readApprovalButton(customId: string): { approvalId: string; decision: "approve" | "deny" } | undefined {
  const match = CUSTOM_ID.exec(customId);
  return match ? { approvalId: match[1]!, decision: match[2] as "approve" | "deny" } : undefined;
}
