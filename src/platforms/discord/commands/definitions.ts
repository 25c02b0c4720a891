import {
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandStringOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord.js";

export const COMMAND = { ask: "ask", tools: "tools", memory: "memory" } as const;

/** Longest question /ask accepts (Discord allows up to 6,000 characters in an option). */
export const MAX_QUESTION_CHARS = 1_500;

/**
 * The slash commands, as registered with Discord. `/tools` changes settings, so Discord shows it
 * only to members with Manage Server (or Administrator) unless a server admin grants it to
 * others in Server Settings → Integrations; the code checks the permission again on every call.
 */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const ask = new SlashCommandBuilder()
    .setName(COMMAND.ask)
    .setDescription("Ask the bot a question; it may use tools and shows each step.")
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((option) =>
      option.setName("question").setDescription("What do you want to know?").setRequired(true).setMaxLength(MAX_QUESTION_CHARS),
    );

  const toolName = (option: SlashCommandStringOption) =>
    option.setName("tool").setDescription("The tool's name").setRequired(true).setAutocomplete(true);
  const tools = new SlashCommandBuilder()
    .setName(COMMAND.tools)
    .setDescription("See or change which tools the bot may use in this server.")
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .addSubcommand((sub) => sub.setName("list").setDescription("Every tool and whether it is on in this server."))
    .addSubcommand((sub) => sub.setName("enable").setDescription("Let the bot use a tool in this server.").addStringOption(toolName))
    .addSubcommand((sub) => sub.setName("disable").setDescription("Stop the bot using a tool in this server.").addStringOption(toolName));

  const memory = new SlashCommandBuilder()
    .setName(COMMAND.memory)
    .setDescription("What the bot remembers of this channel.")
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addSubcommand((sub) => sub.setName("show").setDescription("Show the recent conversation the bot remembers here (only you see it)."))
    .addSubcommand((sub) =>
      sub.setName("clear").setDescription("Forget this channel's recent conversation (Manage Messages or Manage Server)."),
    );

  return [ask.toJSON(), tools.toJSON(), memory.toJSON()];
}
