import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from "discord.js";

/** The custom id of an approval button: "approval:<id>:approve" or "approval:<id>:deny" (at most 100 characters). */
const CUSTOM_ID = /^approval:([\w-]{1,80}):(approve|deny)$/;

/** Approve and Deny, as one row of message components carrying the request's id. */
export function approvalButtons(approvalId: string): ActionRowBuilder<ButtonBuilder> {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(`approval:${approvalId}:approve`).setLabel("Approve").setStyle(ButtonStyle.Success),
    new ButtonBuilder().setCustomId(`approval:${approvalId}:deny`).setLabel("Deny").setStyle(ButtonStyle.Danger),
  );
}

/** The request and the decision a pressed button carries; undefined for other buttons. */
export function readApprovalButton(customId: string): { approvalId: string; decision: "approve" | "deny" } | undefined {
  const match = CUSTOM_ID.exec(customId);
  return match ? { approvalId: match[1]!, decision: match[2] as "approve" | "deny" } : undefined;
}
