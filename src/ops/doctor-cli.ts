import { loadDotEnv } from "../config/env.js";
import { parseCommandLine, refuse } from "./command-line.js";
import { formatVerdicts, runDoctor } from "./doctor.js";

const spec = {
  command: "npm run doctor",
  summary:
    "Checks what the bot needs without starting it: the configuration (.env and the environment), the database, the model, each configured platform's token, the plugins in TOOLS_DIR and the MCP servers of MCP_CONFIG. One line per item (✔ fine, ⚠ worth a look, ✘ failed); exit code 1 when a check failed.",
  options: { timeout: { type: "string", valueName: "SECONDS", description: "the longest wait for any one server or plugin (default 10)" } },
  examples: ["npm run doctor", "npm run doctor -- --timeout 30"],
} as const;
const { values } = parseCommandLine(spec);
const seconds = values.timeout === undefined ? 10 : Number(values.timeout);
if (!Number.isFinite(seconds) || seconds <= 0) refuse(spec, `--timeout takes a number of seconds greater than 0 (got "${values.timeout}")`);

loadDotEnv();
const verdicts = await runDoctor(undefined, { timeoutMs: seconds * 1000 });
process.stdout.write(`${formatVerdicts(verdicts)}\n`);
// An SDK's keep-alive sockets or a server's child process must not keep the doctor waiting once it has said everything.
process.exit(verdicts.some((verdict) => verdict.status === "fail") ? 1 : 0);
