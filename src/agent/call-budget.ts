import type { Usage } from "./model.js";
import { BotError } from "../errors.js";

/**
 * What is asked before each model call (turns, retries, a tool's side questions, and whatever
 * else goes through ModelCaller): may it go, and with how many answer tokens at most. Whoever
 * owns the budgets (the runner, from the store) implements it; the agent knows none of them.
 */
export interface CallBudget {
  /**
   * `countPromptTokens` is called only when a budget applies: counting a prompt with the
   * tokenizer is the dearest part of the check, and most calls have no budget to check.
   */
  reserve(call: { model: string; countPromptTokens(): number }): Promise<CallPermit>;
}

export type CallPermit =
  | {
      allowed: true;
      /** Set when a budget limits the answer: the call is sent with this max_tokens. */
      maxTokens?: number;
      /** The short line naming the budget that limited it (shown if the answer used all of maxTokens). */
      notice?: string;
      /**
       * With the call's real usage; undefined: it failed before an answer, nothing to charge;
       * "unknown": it was answered but its usage was never told, so the reservation is charged. Never rejects.
       */
      settle(usage: Usage | "unknown" | undefined): Promise<void>;
    }
  /** `notice`: one short line naming the budget reached, for the user. */
  | { allowed: false; notice: string };

/** A model call not made for want of budget: the turn ends with what it has and `notice`. */
export class BudgetReached extends BotError<"budget_reached"> {
  override readonly name = "BudgetReached";
  constructor(readonly notice: string) {
    super("budget_reached", notice);
  }
}
