import { cpus, freemem, totalmem } from "node:os";
import { REQUIRED_KEYS } from "./registry.js";
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
  const required = Object.fromEntries(REQUIRED_KEYS.map((key) => [key, figures[key] ?? null]));
  return {
    ...required,
    mode,
    seconds: round(seconds),
    machine: describeMachine(),
    figures,
    goals: Object.fromEntries(
      outcomes.flatMap(({ result }) => result.figures.filter((f) => f.goal).map((f) => [f.key, { goal: f.goal, met: f.met }])),
    ),
    parts: Object.fromEntries(outcomes.map(({ part, result, seconds: s }) => [part.id, { seconds: round(s), ...result.detail }])),
  };
}

/** A short table for people: one block per part, goals marked met or missed. */
export function textReport(outcomes: PartOutcome[], mode: "full" | "quick", seconds: number): string {
  const machine = describeMachine();
  const lines = [
    `agent-bot benchmark (${mode}) on ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB, Node ${machine.node}: ${seconds.toFixed(0)} s`,
  ];
  const rows = outcomes.flatMap(({ part, result }) => [
    { title: part.title },
    ...result.figures.map((figure) => ({ figure })),
  ]);
  const labelWidth = Math.max(...rows.map((row) => ("figure" in row ? row.figure.label.length : 0)));
  for (const row of rows) {
    if ("title" in row) {
      lines.push("", row.title);
      continue;
    }
    lines.push(`  ${row.figure.label.padEnd(labelWidth)}  ${formatValue(row.figure).padStart(12)}  ${formatGoal(row.figure)}`);
  }
  const unmeasured = REQUIRED_KEYS.filter((key) => !outcomes.some(({ result }) => result.figures.some((f) => f.key === key)));
  if (unmeasured.length > 0) lines.push("", `not measured in this run: ${unmeasured.join(", ")}`);
  if (mode === "quick") lines.push("", "quick mode: tiny sizes, the figures only prove the benchmark runs.");
  return lines.join("\n");
}

function formatValue(figure: Figure): string {
  if (figure.value === null) return "n/a";
  return `${figure.value}${figure.unit ? ` ${figure.unit}` : ""}`;
}

function formatGoal(figure: Figure): string {
  if (!figure.goal) return "";
  return `goal ${figure.goal}  ${figure.met ? "met" : "MISSED"}`;
}
