import { cleanAnswer, hasVisibleText } from "../text.js";
import type { BudgetReached } from "./call-budget.js";
import type { ModelMessage } from "./model.js";
import { ModelCaller } from "./model-caller.js";
import type { ModelCatalog } from "./model-catalog.js";
import { FORCED_STOP_ANSWER, reactInstructions, systemPrompt } from "./prompts.js";
import type { ProtocolSession } from "./protocol.js";
import { ReactProtocolSession } from "./react-protocol.js";
import { invokeTool, tooManyCallsResult, type InvokerDeps } from "./tool-invoker.js";
import { ToolsProtocolSession } from "./tools-protocol.js";
import { emptyUsage, type AgentResult, type AgentRun, type AgentSettings, type Usage } from "./types.js";
import { userMessage } from "./user-message.js";
import { hasCode } from "../errors.js";
import type { AnswerTextSink } from "../contract/turn-view.js";

const EMPTY_REPLY = "Your reply was empty. Please answer the user's last message.";

/**
 * The LLM ⇄ tool loop. Knows nothing of chat platforms: it gets the history, the input and the
 * tools this turn may use, reports steps through `run.onStep`, and returns the final answer.
 * Throws LlmError when the model fails for good and TurnCancelled when `run.signal` aborts.
 */
export class Agent {
  constructor(
    private readonly models: ModelCatalog,
    private readonly settings: AgentSettings,
  ) {}

  async run(run: AgentRun): Promise<AgentResult> {
    const usage = run.usage ?? emptyUsage();
    const model = run.model ?? this.settings.model;
    const caller = new ModelCaller(
      this.models.model(model),
      usage,
      this.settings.retry,
      { idleTimeoutMs: this.settings.streamIdleTimeoutMs ?? 60_000 },
      run.budget ? { model, budget: run.budget } : undefined,
      run.modelCalls,
    );
    const shown = shownText(run.onAnswerText);
    const session = this.openSession(caller, run, shown.onText);
    let seq = 0;
    const deps: InvokerDeps = {
      tools: new Map(run.tools.map((tool) => [tool.name, tool])),
      request: run.request,
      signal: run.signal,
      logger: run.logger,
      defaultTimeoutMs: this.settings.toolTimeoutMs,
      llm: (prompt, signal) => caller.ask(prompt, signal),
      onStep: run.onStep,
      approval: run.approval,
      nextSeq: () => ++seq,
    };

    const counted = { iterations: 0 };
    try {
      const result = await this.loop(run, session, deps, shown, counted, usage);
      if (!caller.budgetNotice) return result;
      return { ...result, output: withNotice(result.output, caller.budgetNotice), outcome: "budget_reached" };
    } catch (error) {
      if (!hasCode<BudgetReached>(error, "budget_reached")) throw error;
      shown.retract();
      return { output: withNotice(session.answerSoFar(), error.notice), outcome: "budget_reached", iterations: counted.iterations, usage };
    }
  }

  private async loop(
    run: AgentRun,
    session: ProtocolSession,
    deps: InvokerDeps,
    shown: { retract(): void },
    counted: { iterations: number },
    usage: Usage,
  ): Promise<AgentResult> {
    let iterations = 0;
    while (iterations < this.settings.maxIterations) {
      const decision = await session.decide(run.signal);
      if (decision.kind === "final" && hasVisibleText(decision.text)) {
        return { output: cleanAnswer(decision.text), outcome: "answer", iterations, usage };
      }
      counted.iterations = ++iterations;
      // What was shown of this model call was not the answer: it came before tool calls, or was unusable.
      shown.retract();
      if (decision.kind !== "calls") {
        session.recordInvalid(decision.kind === "invalid" ? decision.observation : EMPTY_REPLY);
        continue;
      }
      const cap = this.settings.maxToolCallsPerStep;
      const results = await Promise.all(decision.calls.map((call, index) => (index < cap ? invokeTool(call, deps) : tooManyCallsResult(cap))));
      const direct = results.filter((result) => result.ok && result.returnDirect);
      if (direct.length > 0) {
        return { output: cleanAnswer(direct.map((result) => result.observation).join("\n\n")), outcome: "direct", iterations, usage };
      }
      session.recordResults(results);
    }

    if (this.settings.earlyStopping === "generate") {
      const text = await session.finalAttempt(run.signal);
      if (text && hasVisibleText(text)) return { output: cleanAnswer(text), outcome: "iteration_limit_generated", iterations, usage };
    }
    return { output: FORCED_STOP_ANSWER, outcome: "iteration_limit_forced", iterations, usage };
  }

  private openSession(caller: ModelCaller, run: AgentRun, onText: ((text: string) => void) | undefined): ProtocolSession {
    const react = this.settings.protocol === "react";
    const system = systemPrompt([this.settings.systemPrompt, run.instructions].filter(Boolean).join("\n\n"));
    const messages: ModelMessage[] = [
      { role: "system", content: react ? `${system}\n\n${reactInstructions(run.tools)}` : system },
      ...(run.memory ? [{ role: "system" as const, content: run.memory }] : []),
      ...run.history.map((message): ModelMessage => ({ role: message.role, content: message.text })),
      userMessage(run),
    ];
    return react
      ? new ReactProtocolSession(caller, messages, run.tools, run.logger, onText)
      : new ToolsProtocolSession(caller, messages, run.tools, run.logger, onText);
  }
}

/** The answer so far and, on a line of its own, the budget that ended it. */
function withNotice(answer: string, notice: string): string {
  const text = cleanAnswer(answer);
  return hasVisibleText(text) ? `${text}\n\n_${notice}_` : `_${notice}_`;
}

/** The answer-text sink as the sessions use it, remembering whether anything was shown since the last retraction. */
function shownText(sink: AnswerTextSink | undefined): { onText?: (text: string) => void; retract(): void } {
  if (!sink) return { retract: () => {} };
  let shown = false;
  return {
    onText: (text) => {
      shown = true;
      sink({ type: "delta", text });
    },
    retract: () => {
      if (shown) sink({ type: "retracted" });
      shown = false;
    },
  };
}
