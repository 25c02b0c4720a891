import { loadDotEnv } from "../config/env.js";
import { formatVerdicts, runDoctor } from "./doctor.js";

loadDotEnv();
const verdicts = await runDoctor();
process.stdout.write(`${formatVerdicts(verdicts)}\n`);
process.exitCode = verdicts.every((verdict) => verdict.ok) ? 0 : 1;
