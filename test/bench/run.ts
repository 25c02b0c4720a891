import { parseArgs } from "node:util";
import { benchParts } from "./registry.js";
import { buildBenchBot } from "./support/built-bot.js";
import { jsonReport, textReport, type PartOutcome } from "./report.js";
import type { BenchOptions } from "./types.js";

const USAGE = `usage: npm run bench -- [--json] [--quick] [--only ${benchParts.map((part) => part.id).join(",")}]
  --json    print one JSON object on stdout (progress and the table go to stderr;
            npm adds its own header on stdout: use npm run -s bench -- --json)
  --quick   tiny sizes, a few seconds: proves the benchmark runs (alias --smoke)
  --only    run only these parts, comma-separated`;

function readArgs() {
  try {
    const { values } = parseArgs({
      options: {
        json: { type: "boolean", default: false },
        quick: { type: "boolean", default: false },
        smoke: { type: "boolean", default: false },
        only: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
    return values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const args = readArgs();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const wanted = args.only
    ?.split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = wanted?.filter((id) => !benchParts.some((part) => part.id === id)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(`unknown part: ${unknown.join(", ")}\n${USAGE}\n`);
    process.exit(2);
  }
  const parts = wanted ? benchParts.filter((part) => wanted.includes(part.id)) : benchParts;
  const mode = args.quick || args.smoke ? "quick" : "full";
  const options: BenchOptions = {
    quick: mode === "quick",
    note: (message) => process.stderr.write(`[bench] ${message}\n`),
  };

  options.note("building the bot as npm run build does (the parts run that JavaScript)");
  buildBenchBot();
  const started = performance.now();
  const outcomes: PartOutcome[] = [];
  for (const part of parts) {
    options.note(`${part.title}`);
    const partStarted = performance.now();
    const result = await part.run(options);
    outcomes.push({ part, result, seconds: (performance.now() - partStarted) / 1000 });
  }
  const seconds = (performance.now() - started) / 1000;
  const table = `${textReport(outcomes, mode, seconds)}\n`;
  if (args.json) {
    process.stdout.write(`${JSON.stringify(jsonReport(outcomes, mode, seconds))}\n`);
    process.stderr.write(table);
  } else {
    process.stdout.write(table);
  }
}

main().catch((error) => {
  process.stderr.write(`the benchmark failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
