import type { Tool } from "./define-tool.js";
import { BotError } from "../errors.js";
import type { ToolOrigin } from "../contract/commands.js";

class DuplicateToolError extends BotError<"tool_invalid"> {
  override readonly name = "DuplicateToolError";
  constructor(message: string, options?: ErrorOptions) {
    super("tool_invalid", message, options);
  }
}

/** Every tool the bot knows, by name. Which of them a workspace may use is the runner's business. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new DuplicateToolError(`a tool named "${tool.name}" already exists`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** How many tools it has: tools are only ever added, so a change of size is a change. */
  get size(): number {
    return this.tools.size;
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  names(origin?: ToolOrigin): string[] {
    return this.list()
      .filter((tool) => origin === undefined || tool.origin === origin)
      .map((tool) => tool.name);
  }
}
