import { loadDotEnv } from "../config/env.js";
import { parseCommandLine } from "./command-line.js";
import { formatVerdicts, runDoctor } from "./doctor.js";

parseCommandLine({
  command: "npm run doctor",
  summary:
    "Checks what the bot needs without starting it: the configuration (.env and the environment), the database, the model, each configured platform's token. One line per item; exit code 1 when a check fails.",
  options: {},
  examples: ["npm run doctor"],
});

loadDotEnv();
const verdicts = await runDoctor();
process.stdout.write(`${formatVerdicts(verdicts)}\n`);
process.exitCode = verdicts.every((verdict) => verdict.ok) ? 0 : 1;
