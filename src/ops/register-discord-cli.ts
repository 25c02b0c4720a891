/**
 * `npm run register:discord`: registers the slash commands. With DISCORD_GUILD_ID set they are
 * registered in that server only and appear at once (good for testing); otherwise globally.
 */
import { ConfigError, loadConfig, loadDotEnv } from "../config/env.js";
import { describeDiscordError } from "../platforms/discord/errors.js";
import { registerCommands } from "../platforms/discord/commands/registration.js";
import { parseCommandLine } from "./command-line.js";
import { hasCode } from "../errors.js";

parseCommandLine({
  command: "npm run register:discord",
  summary:
    "Registers the bot's slash commands with Discord (DISCORD_TOKEN). With DISCORD_GUILD_ID set, in that server only, where they appear at once (good for testing); otherwise globally, where they may take a while to appear.",
  options: {},
  examples: ["npm run register:discord", "DISCORD_GUILD_ID=123456789012345678 npm run register:discord"],
});

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (!config.DISCORD_TOKEN) throw new ConfigError("DISCORD_TOKEN must be set to register the Discord commands (see .env.example).");
  const result = await registerCommands({ token: config.DISCORD_TOKEN, apiUrl: config.DISCORD_API_URL, guildId: config.DISCORD_GUILD_ID });
  const where = result.scope === "guild" ? `in the server ${config.DISCORD_GUILD_ID}` : "globally (all servers)";
  process.stdout.write(`Registered /${result.names.join(", /")} ${where} for application ${result.applicationId}.\n`);
}

main().catch((error) => {
  const message = hasCode(error, "config_invalid") ? error.message : `Could not register the commands: ${describeDiscordError(error).message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
