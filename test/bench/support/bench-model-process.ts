import { startBenchModel } from "./bench-model.js";

// The fake model in a process of its own, so its work does not share an event loop with what is
// measured. Prints its origin as one JSON line; exits when the parent closes stdin (or dies).
const { origin } = await startBenchModel();
process.stdout.write(`${JSON.stringify({ origin })}\n`);
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
