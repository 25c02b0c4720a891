import type { Tool } from "../define-tool.js";
import { knowledgeTools, type KnowledgeConfig } from "../knowledge/index.js";
import { calculatorTool } from "./calculator.js";
import { circumferenceTool } from "./circumference.js";
import { createCurrencyTool, type CurrencyToolOptions } from "./currency/currency-tool.js";
import type { HistoryStore } from "../../store/history-store.js";
import { hypotenuseTool } from "./hypotenuse.js";
import { createReminderTool, type ReminderDesk } from "./reminder.js";
import { createSearchHistoryTool } from "./search-history.js";
import { timeTool } from "./time.js";

export interface BuiltinToolOptions {
  currency: CurrencyToolOptions;
  knowledge: KnowledgeConfig;
  /** One-off reminders through the scheduled tasks; without it there is no create_reminder. */
  reminders?: ReminderDesk;
  /** The store's history index, searched by search_history (none: no such tool, as in the doctor's check of plugin names). */
  history?: HistoryStore;
  /** Resolves once this process's queued index writes are done (HistoryRecorder.caughtUp): search_history waits for it. */
  historyWritten?: () => Promise<void>;
}

export function builtinTools(options: BuiltinToolOptions): Tool[] {
  return [
    calculatorTool,
    circumferenceTool,
    hypotenuseTool,
    timeTool,
    createCurrencyTool(options.currency),
    ...(options.history ? [createSearchHistoryTool(options.history, options.historyWritten)] : []),
    ...knowledgeTools(options.knowledge),
    ...(options.reminders ? [createReminderTool(options.reminders)] : []),
  ];
}
