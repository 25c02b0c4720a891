import { REST, Routes, type APIApplication } from "discord.js";
import { commandDefinitions } from "./definitions.js";

export interface RegistrationOptions {
  token: string;
  /** REST base override (DISCORD_API_URL); discord.js appends /v10. */
  apiUrl?: string;
  /** Register for this guild only (instant), instead of globally. */
  guildId?: string;
}

export interface RegistrationResult {
  applicationId: string;
  scope: "global" | "guild";
  names: string[];
}

/** Replaces the application's slash commands with the bot's, globally or in one guild. */
export async function registerCommands(options: RegistrationOptions): Promise<RegistrationResult> {
  const rest = new REST(options.apiUrl ? { api: options.apiUrl } : {}).setToken(options.token);
  const application = (await rest.get(Routes.currentApplication())) as APIApplication;
  const route = options.guildId ? Routes.applicationGuildCommands(application.id, options.guildId) : Routes.applicationCommands(application.id);
  const registered = (await rest.put(route, { body: commandDefinitions() })) as { name: string }[];
  return {
    applicationId: application.id,
    scope: options.guildId ? "guild" : "global",
    names: registered.map((command) => command.name),
  };
}
