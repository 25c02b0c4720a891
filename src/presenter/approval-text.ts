import type { ApprovalOutcome, ApprovalPrompt } from "../contract/approvals.js";
import { displayToolName } from "../text.js";
import { argsText, inlineCode } from "./step-format.js";

/** Names come from the platform and may hold markup: shown as code, one line, at most 64 characters. */
const shownName = (name: string) => inlineCode(displayToolName(name));

const call = (prompt: ApprovalPrompt) => `${inlineCode(displayToolName(prompt.tool))} ${inlineCode(argsText(prompt.args))}`;

/** How long a wait is, in words: "5 minutes", "30 seconds", "300 ms". */
function waitText(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1_000)} seconds`;
  return `${Math.round(ms / 60_000)} minutes`;
}

/** The request, in Markdown, shown where the steps go with the platform's Approve and Deny controls. */
export function approvalRequestText(prompt: ApprovalPrompt): string {
  const who = prompt.by === "admin" ? "an admin" : "they or an admin";
  return `⏸️ **Approval needed** to run ${call(prompt)}\nAsked by ${shownName(prompt.askerName)}; ${who} may approve or deny it within ${waitText(prompt.timeoutMs)}.`;
}

/** What replaces the controls once the request has ended: the decision and who made it. */
export function approvalOutcomeText(prompt: ApprovalPrompt, outcome: ApprovalOutcome): string {
  switch (outcome.kind) {
    case "approved":
      return `✅ Approved by ${shownName(outcome.by.name)}: ${call(prompt)} runs.`;
    case "denied":
      return `❌ Denied by ${shownName(outcome.by.name)}: ${call(prompt)} did not run.`;
    case "timed_out":
      return `⌛ No decision within ${waitText(prompt.timeoutMs)}: ${call(prompt)} did not run.`;
    case "expired":
      return `⌛ The bot stopped before a decision: ${call(prompt)} did not run.`;
  }
}

/** What a presser is told alone. */
export const APPROVAL_TEXT = {
  expired: "This request expired (the bot restarted, or it waited too long), so nothing ran. Ask the bot again if it is still needed.",
  alreadyDecided: "This request was already decided.",
  notYours: (by: ApprovalPrompt["by"]) =>
    by === "admin" ? "Only admins can approve or deny this." : "Only the person who asked, or an admin, can approve or deny this.",
} as const;
