import { parseAgentOutput } from "../../../src/agent/react-parser.js";
import { corpus, KIND_TITLES, scoreCorpus } from "../../agent/react-corpus/index.js";
import { PATHOLOGICAL } from "../../agent/react-corpus/pathological.js";
import { round } from "../support/stats.js";
import type { BenchPart, Figure } from "../types.js";

const GOAL_PATHOLOGICAL_MS = 100;

/**
 * Part 6: the text protocol's parser on its corpus (test/agent/react-corpus/), as the share of
 * each group read as expected, and the slowest of the pathological replies. Fast in both modes.
 */
export const reactParserPart: BenchPart = {
  id: "parser",
  title: "6. Text-protocol parser: share of its corpus read as expected, by kind; pathological replies",
  async run() {
    const scores = scoreCorpus(parseAgentOutput);
    const passed = scores.reduce((sum, score) => sum + score.passed, 0);
    const total = scores.reduce((sum, score) => sum + score.total, 0);
    const timings = Object.entries(PATHOLOGICAL).map(([name, text]) => ({ name, ms: timeParse(text) }));
    const slowest = timings.reduce((worst, timing) => (timing.ms > worst.ms ? timing : worst));
    const figures: Figure[] = [
      ...scores.map((score) => ({
        key: `react_parser_score_${score.kind}`,
        label: `${KIND_TITLES[score.kind].replace(/^\d\. /, "")} (${score.passed}/${score.total})`,
        value: round(score.passed / score.total, 3),
      })),
      { key: "react_parser_score_all", label: `all ${total} cases`, value: round(passed / total, 3) },
      {
        key: "react_parser_pathological_max_ms",
        label: `slowest of ${timings.length} pathological replies`,
        value: round(slowest.ms, 2),
        unit: "ms",
        goal: `< ${GOAL_PATHOLOGICAL_MS}`,
        met: slowest.ms < GOAL_PATHOLOGICAL_MS,
      },
    ];
    return {
      figures,
      detail: {
        cases: Object.fromEntries(Object.entries(corpus).map(([kind, cases]) => [kind, cases.length])),
        missed: Object.fromEntries(scores.map((score) => [score.kind, score.missed])),
        pathological_ms: Object.fromEntries(timings.map((timing) => [timing.name, round(timing.ms, 2)])),
      },
    };
  },
};

/** The best of three runs: the first pays for compiling the parser, the figure is the parser's own. */
function timeParse(text: string): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    try {
      parseAgentOutput(text);
    } catch {
      // unreadable replies throw: what is timed is how long it takes to tell
    }
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
