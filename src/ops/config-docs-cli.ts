import { readFileSync, writeFileSync } from "node:fs";
import { parseCommandLine } from "./command-line.js";
import { parseEnvExample, renderConfigurationPage, withCommandList } from "./config-docs.js";

parseCommandLine({
  command: "npm run docs:config",
  summary:
    "Writes docs/configuration.md from .env.example and the command list in docs/admin.md from the command catalogue. Run it after adding or changing a variable or a command.",
  options: {},
  examples: ["npm run docs:config"],
});

const configuration = renderConfigurationPage(parseEnvExample(readFileSync(".env.example", "utf8")));
writeFileSync("docs/configuration.md", configuration);
writeFileSync("docs/admin.md", withCommandList(readFileSync("docs/admin.md", "utf8")));
process.stdout.write("Wrote docs/configuration.md and the command list in docs/admin.md.\n");
