import { cpus, freemem, totalmem } from "node:os";
import { FULL_SIZE_KEYS, ISSUE_GOAL_KEYS, REQUIRED_KEYS } from "./registry.js";
import { round } from "./support/stats.js";
import type { BenchPart, Figure, PartResult } from "./types.js";

export interface PartOutcome {
  part: BenchPart;
  result: PartResult;
  seconds: number;
}

function describeMachine() {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? "unknown",
    memory_gb: round(totalmem() / 1024 ** 3, 3),
    free_memory_gb: round(freemem() / 1024 ** 3, 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** One JSON object: the required keys first, then every figure by key, then each part's detail. */
export function jsonReport(outcomes: PartOutcome[], mode: "full" | "quick", seconds: number): Record<string, unknown> {
  const figures: Record<string, number | null> = {};
  for (const { result } of outcomes) for (const figure of result.figures) figures[figure.key] = figure.value;
  const required = Object.fromEntries(requiredKeys(mode).map((key) => [key, figures[key] ?? null]));
  return {
    ...required,
    mode,
    seconds: round(seconds),
    machine: describeMachine(),
    figures,
    goals: Object.fromEntries(outcomes.flatMap(({ result }) => result.figures.filter((f) => f.goal).map((f) => [f.key, { goal: f.goal, met: f.met }]))),
    parts: Object.fromEntries(outcomes.map(({ part, result, seconds: s }) => [part.id, { seconds: round(s), ...result.detail }])),
  };
}

/** A short table for people: one block per part, goals marked met or missed. */
export function textReport(outcomes: PartOutcome[], mode: "full" | "quick", seconds: number): string {
  const machine = describeMachine();
  const lines = [
    `agent-bot benchmark (${mode}) on ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB, Node ${machine.node}: ${seconds.toFixed(0)} s`,
  ];
  const rows = outcomes.flatMap(({ part, result }) => [{ title: part.title }, ...result.figures.map((figure) => ({ figure }))]);
  const labelWidth = Math.max(...rows.map((row) => ("figure" in row ? row.figure.label.length : 0)));
  for (const row of rows) {
    if ("title" in row) {
      lines.push("", row.title);
      continue;
    }
    lines.push(`  ${row.figure.label.padEnd(labelWidth)}  ${formatValue(row.figure).padStart(12)}  ${formatGoal(row.figure)}`);
  }
  lines.push("", ...goalsTable(outcomes, mode));
  const unmeasured = requiredKeys(mode).filter((key) => !outcomes.some(({ result }) => result.figures.some((f) => f.key === key)));
  if (unmeasured.length > 0) lines.push("", `not measured in this run: ${unmeasured.join(", ")}`);
  if (mode === "quick") lines.push("", "quick mode: tiny sizes, the figures only prove the benchmark runs.");
  return lines.join("\n");
}

function requiredKeys(mode: "full" | "quick"): readonly string[] {
  return mode === "quick" ? REQUIRED_KEYS.filter((key) => !FULL_SIZE_KEYS.includes(key)) : REQUIRED_KEYS;
}

/**
 * Every figure with a goal: the issue's goals first, in its order (a goal not measured in this
 * run says so), then the checks the parts add (leaks, queues left, the parser's worst case…).
 */
function goalsTable(outcomes: PartOutcome[], mode: "full" | "quick"): string[] {
  const withGoals = outcomes.flatMap(({ result }) => result.figures.filter((figure) => figure.goal));
  const byKey = new Map(withGoals.map((figure) => [figure.key, figure]));
  const issueKeys = ISSUE_GOAL_KEYS.filter((key) => mode === "full" || !FULL_SIZE_KEYS.includes(key));
  const rows = [
    ...issueKeys.map((key) => {
      const figure = byKey.get(key);
      return figure ? [key, formatValue(figure), figure.goal!, figure.met ? "met" : "MISSED"] : [key, "not measured", "", ""];
    }),
    ...withGoals
      .filter((figure) => !(ISSUE_GOAL_KEYS as readonly string[]).includes(figure.key))
      .map((figure) => [figure.key, formatValue(figure), figure.goal!, figure.met ? "met" : "MISSED"]),
  ];
  const header = ["figure", "result", "goal", "met?"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `  ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")}`.trimEnd();
  return ["Goals", line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];
}

function formatValue(figure: Figure): string {
  if (figure.value === null) return "n/a";
  return `${figure.value}${figure.unit ? ` ${figure.unit}` : ""}`;
}

function formatGoal(figure: Figure): string {
  if (!figure.goal) return "";
  return `goal ${figure.goal}  ${figure.met ? "met" : "MISSED"}`;
}
