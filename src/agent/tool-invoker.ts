import { lazyChild, type Logger } from "../log.js";
import type { Tool, ToolContext, ToolRequestInfo } from "../tools/define-tool.js";
import { displayToolName, shorten } from "../text.js";
import { deadline } from "../signals.js";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "./json-depth.js";
import type { ApprovalVerdict, ToolApproval } from "./types.js";
import { BotError } from "../errors.js";
import type { StepEvent } from "../contract/turn-view.js";

/** Tool output is untrusted text of any size: the model gets at most this much of it. */
const MAX_OBSERVATION_CHARS = 4_000;
/**
 * Arguments come from the model, of any size: a step event (shown in chat, written to the
 * audit) carries them whole only up to this length as JSON, else as shortened JSON text.
 */
const MAX_STEP_ARGS_CHARS = 2_000;
/** What a step shows for arguments too deep to serialise. */
const TOO_DEEP_FOR_STEP = `(arguments nested more than ${MAX_JSON_DEPTH} levels deep)`;

export interface ToolCallRequest {
  tool: string;
  /** Arguments as the model sent them: an object, a bare value, or unparseable JSON text. */
  args: unknown;
  argsError?: string;
}

export interface ToolCallResult {
  ok: boolean;
  /** What goes back to the model. */
  observation: string;
  returnDirect: boolean;
}

export class TurnCancelled extends BotError<"turn_cancelled"> {
  override readonly name = "TurnCancelled";
  constructor(message: string, options?: ErrorOptions) {
    super("turn_cancelled", message, options);
  }
}

export interface InvokerDeps {
  tools: Map<string, Tool>;
  request: ToolRequestInfo;
  signal: AbortSignal;
  logger: Logger;
  defaultTimeoutMs: number;
  llm(prompt: string, signal: AbortSignal): Promise<string>;
  onStep(event: StepEvent): void;
  /** Tools that need a person's approval first, and how to ask. */
  approval?: ToolApproval;
  nextSeq(): number;
}

/**
 * Runs one tool call the model asked for. Every failure (unknown or disallowed tool, bad
 * arguments, a throw, a timeout) becomes an error observation for the model; only the
 * cancellation of the whole turn escapes as TurnCancelled.
 */
export async function invokeTool(call: ToolCallRequest, deps: InvokerDeps): Promise<ToolCallResult> {
  const seq = deps.nextSeq();
  // Restarted once a person approved: the step's duration is the tool's, the wait is approvalWaitMs.
  let started = performance.now();
  let approvalWaitMs: number | undefined;
  const shown = displayToolName(call.tool);
  // First, before anything serialises or walks the arguments: past this depth JSON.stringify overflows the stack.
  const tooDeep = nestedDeeperThan(call.args, MAX_JSON_DEPTH);
  const args = tooDeep ? TOO_DEEP_FOR_STEP : argsForStep(call.args);
  const tool = deps.tools.get(call.tool);
  // A call that needs approval shows as a request first; its step starts only once approved.
  const needsApproval = tool !== undefined && deps.approval?.tools.has(tool.name) === true;
  let stepShown = false;
  const startStep = () => {
    if (stepShown) return;
    stepShown = true;
    deps.onStep({ type: "tool_started", seq, tool: shown, args });
  };
  if (!needsApproval) startStep();
  const fail = (reason: string): ToolCallResult => {
    startStep();
    const error = capObservation(reason);
    deps.onStep({ type: "tool_failed", seq, tool: shown, args, error, durationMs: elapsed(started), ...waited(approvalWaitMs) });
    return { ok: false, observation: `Error: ${error}`, returnDirect: false };
  };

  if (!tool) {
    const available = [...deps.tools.keys()].join(", ") || "none";
    return fail(`there is no tool named "${shown}" available here. Available tools: ${available}.`);
  }
  if (tooDeep) return fail(`the arguments for ${tool.name} are nested too deeply (more than ${MAX_JSON_DEPTH} levels); send them with less nesting.`);
  if (call.argsError) return fail(`the arguments for ${tool.name} are not valid JSON (${call.argsError}).`);
  const parsed = tool.parseArgs(call.args);
  if (!parsed.ok) return fail(`invalid arguments for ${tool.name}: ${parsed.error}`);
  if (needsApproval) {
    const verdict = await askApproval(deps, tool.name, args);
    if (!verdict.approved) return { ok: false, observation: notApproved(tool.name, verdict.reason), returnDirect: false };
    approvalWaitMs = elapsed(started);
    started = performance.now();
    startStep();
  }

  const timeoutMs = tool.timeoutMs ?? deps.defaultTimeoutMs;
  const toolDeadline = deadline(deps.signal, timeoutMs, () => new DOMException("the tool timed out", "TimeoutError"));
  const ctx: ToolContext = {
    // Read only by tools that pass it on: the others cost no AbortController.
    get signal() {
      return toolDeadline.signal;
    },
    request: deps.request,
    logger: lazyChild(deps.logger, { tool: tool.name }),
    llm: (prompt) => deps.llm(prompt, toolDeadline.signal),
  };
  try {
    const value = await toolDeadline.until(tool.run(parsed.value, ctx));
    const output = capObservation(stringify(value));
    deps.onStep({ type: "tool_finished", seq, tool: tool.name, args, output, durationMs: elapsed(started), ...waited(approvalWaitMs) });
    return { ok: true, observation: output, returnDirect: tool.returnDirect };
  } catch (error) {
    if (deps.signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
    if (toolDeadline.expired) return fail(`${tool.name} took longer than ${formatSeconds(timeoutMs)} and was stopped.`);
    deps.logger.warn({ err: error, tool: tool.name }, "tool failed");
    return fail(`${tool.name} failed: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    toolDeadline.release();
  }
}

/** Waits for a person's decision; a cancelled turn ends the wait as TurnCancelled. */
async function askApproval(deps: InvokerDeps, tool: string, args: unknown): Promise<ApprovalVerdict> {
  try {
    return await deps.approval!.ask({ tool, args }, deps.signal);
  } catch (error) {
    if (deps.signal.aborted) throw new TurnCancelled("the turn was cancelled", { cause: error });
    throw error;
  }
}

/** What the model is told of a call that did not run for want of approval: it must go on without it. */
function notApproved(tool: string, reason: Exclude<ApprovalVerdict, { approved: true }>["reason"]): string {
  const why = {
    denied: `a person denied this call to ${tool}`,
    timed_out: `nobody approved this call to ${tool} in time`,
    unavailable: `${tool} needs a person's approval, which cannot be asked for here`,
  }[reason];
  return `Error: ${why}, so it did not run. Do not call it again for this question: answer without it, and say that it did not run.`;
}

/**
 * What the model gets for a call past MAX_TOOL_CALLS_PER_STEP: the call does not run and posts
 * no step (fifty parallel calls would otherwise be fifty chat messages in one turn).
 */
export function tooManyCallsResult(maxCallsPerStep: number): ToolCallResult {
  return {
    ok: false,
    observation: `Error: too many tool calls in one step; at most ${maxCallsPerStep} run, so this one did not. Call it again in a later step if you still need it.`,
    returnDirect: false,
  };
}

/** The arguments as the step shows them: whole when small, else their JSON shortened. */
function argsForStep(args: unknown): unknown {
  const json = typeof args === "string" ? args : (JSON.stringify(args) ?? "");
  return json.length <= MAX_STEP_ARGS_CHARS ? args : shorten(json, MAX_STEP_ARGS_CHARS);
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "(no output)";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function capObservation(text: string): string {
  if (text.length <= MAX_OBSERVATION_CHARS) return text;
  return `${text.slice(0, MAX_OBSERVATION_CHARS)}… [output shortened: ${text.length} characters in all]`;
}

const elapsed = (start: number) => Math.round(performance.now() - start);
/** The event's approvalWaitMs field, present only for a call that waited for one. */
const waited = (approvalWaitMs: number | undefined) => (approvalWaitMs === undefined ? {} : { approvalWaitMs });
const formatSeconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);
