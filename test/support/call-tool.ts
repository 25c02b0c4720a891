import { invokeTool, type ToolCallResult } from "../../src/agent/tool-invoker.js";
import { silentLogger } from "../../src/log.js";
import type { Tool } from "../../src/tools/define-tool.js";
import type { StepEvent } from "../../src/contract/turn-view.js";

/**
 * Calls one tool the way the agent does (argument check, time limit, output cap) and returns
 * what the model would read back, with the step the user would see.
 */
export async function callTool(
  tool: Tool,
  args: unknown,
  options: { timeoutMs?: number; llm?: (prompt: string) => Promise<string> } = {},
): Promise<ToolCallResult & { step: StepEvent }> {
  const steps: StepEvent[] = [];
  let seq = 0;
  const result = await invokeTool(
    { tool: tool.name, args },
    {
      tools: new Map([[tool.name, tool]]),
      request: { platform: "test", workspaceId: "w1", channelId: "c1", userId: "u1" },
      signal: new AbortController().signal,
      logger: silentLogger(),
      defaultTimeoutMs: options.timeoutMs ?? 15_000,
      llm: options.llm ?? (() => Promise.reject(new Error("no model in this test"))),
      onStep: (event) => steps.push(event),
      nextSeq: () => ++seq,
    },
  );
  return { ...result, step: steps.at(-1)! };
}
