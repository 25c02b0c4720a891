/**
 * What a tool plugin imports: `import { defineTool } from "agent-bot/plugin";` (the package refers
 * to itself through the "exports" of package.json, so a plugin works from any folder of the project).
 */
export { defineTool } from "./define-tool.js";
export type { Tool, ToolContext, ToolRequestInfo } from "./define-tool.js";
