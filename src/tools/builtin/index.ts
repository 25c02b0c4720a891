import type { Tool } from "../define-tool.js";
import { knowledgeTools, type KnowledgeConfig } from "../knowledge/index.js";
import { calculatorTool } from "./calculator.js";
import { circumferenceTool } from "./circumference.js";
import { createCurrencyTool, type CurrencyToolOptions } from "./currency/currency-tool.js";
import { hypotenuseTool } from "./hypotenuse.js";
import { timeTool } from "./time.js";

export interface BuiltinToolOptions {
  currency: CurrencyToolOptions;
  knowledge: KnowledgeConfig;
}

export function builtinTools(options: BuiltinToolOptions): Tool[] {
  return [calculatorTool, circumferenceTool, hypotenuseTool, timeTool, createCurrencyTool(options.currency), ...knowledgeTools(options.knowledge)];
}
