import {
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandStringOption,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord.js";

export const COMMAND = { ask: "ask", tools: "tools", memory: "memory", settings: "settings" } as const;

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

  const settings = new SlashCommandBuilder()
    .setName(COMMAND.settings)
    .setDescription("See or change where and how the bot works in this server.")
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .addSubcommand((sub) => sub.setName("show").setDescription("This server's settings for the bot."))
    .addSubcommand((sub) =>
      sub
        .setName("channel-add")
        .setDescription("Answer only in listed channels: add one (this one if none is given).")
        .addChannelOption((option) => option.setName("channel").setDescription("The channel")),
    )
    .addSubcommand((sub) =>
      sub
        .setName("channel-remove")
        .setDescription("Remove a channel from the list (this one if none is given).")
        .addChannelOption((option) => option.setName("channel").setDescription("The channel")),
    )
    .addSubcommand((sub) => sub.setName("channels-all").setDescription("Answer in every channel again."))
    .addSubcommand((sub) =>
      sub
        .setName("ignore-user")
        .setDescription("Ignore a member's messages.")
        .addUserOption((option) => option.setName("user").setDescription("The member").setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName("unignore-user")
        .setDescription("Listen to a member again.")
        .addUserOption((option) => option.setName("user").setDescription("The member").setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName("ignore-role")
        .setDescription("Ignore members with a role.")
        .addRoleOption((option) => option.setName("role").setDescription("The role").setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName("unignore-role")
        .setDescription("Listen to members with a role again.")
        .addRoleOption((option) => option.setName("role").setDescription("The role").setRequired(true)),
    )
    .addSubcommand((sub) =>
      sub
        .setName("memory")
        .setDescription("How many exchanges the bot remembers per channel (leave empty for the default).")
        .addIntegerOption((option) => option.setName("exchanges").setDescription("Exchanges to remember").setMinValue(1)),
    )
    .addSubcommand((sub) =>
      sub
        .setName("prompt")
        .setDescription("Extra instructions for the bot in this server (leave empty to clear).")
        .addStringOption((option) => option.setName("text").setDescription("The instructions").setMaxLength(2_000)),
    );

  return [ask.toJSON(), tools.toJSON(), memory.toJSON(), settings.toJSON()];
}
