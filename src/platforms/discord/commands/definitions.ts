import {
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type SlashCommandSubcommandBuilder,
} from "discord.js";
import { ASK, COMMANDS, GROUPS, type CommandOption, type CommandSpec } from "../../../runner/commands/catalog.js";

/** /ask's optional file: an image (or a text file) the question is about. */
export const ASK_IMAGE = { name: "image", description: "An image (or a file) for the question." } as const;

/**
 * The slash commands as registered with Discord, made from the core's command catalog. /ask may
 * be installed to a server or to a user; the others (settings, admin commands) only to a server,
 * so they stay in servers where the bot is a member. Groups
 * for admins (`/tools`, `/settings`) are shown only to members with Manage Server unless a server
 * admin grants them to others in Server Settings → Integrations; the core checks the role again on every call.
 */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const ask = new SlashCommandBuilder()
    .setName(ASK.name)
    .setDescription(ASK.description)
    // Installed to a server, or to a person, who may then ask anywhere: in servers and DMs the bot is not in too.
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall)
    .addStringOption((option) => option.setName(ASK.option.name).setDescription(ASK.option.description).setRequired(true).setMaxLength(ASK.option.maxLength))
    .addAttachmentOption((option) => option.setName(ASK_IMAGE.name).setDescription(ASK_IMAGE.description).setRequired(false));
  const groups = GROUPS.map((group) => {
    const builder = new SlashCommandBuilder()
      .setName(group.name)
      .setDescription(group.description)
      .setContexts(...(group.inDirectMessages ? [InteractionContextType.Guild, InteractionContextType.BotDM] : [InteractionContextType.Guild]))
      .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);
    if (group.forAdmins) builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
    const specs = COMMANDS.filter((command) => command.group === group.name);
    // A bare group (/usage) is one command without subcommands; the catalog gives it no options.
    if (group.bare) return builder.toJSON();
    const subcommand = (spec: CommandSpec) => (sub: SlashCommandSubcommandBuilder) => {
      sub.setName(spec.name).setDescription(spec.description);
      for (const option of spec.options) addOption(sub, option);
      return sub;
    };
    for (const spec of specs.filter((command) => !command.subgroup)) builder.addSubcommand(subcommand(spec));
    for (const subgroup of new Set(specs.flatMap((command) => command.subgroup ?? []))) {
      builder.addSubcommandGroup((groupBuilder) => {
        groupBuilder.setName(subgroup).setDescription(`This ${subgroup}'s own settings, which its threads follow.`);
        for (const spec of specs.filter((command) => command.subgroup === subgroup)) groupBuilder.addSubcommand(subcommand(spec));
        return groupBuilder;
      });
    }
    return builder.toJSON();
  });
  return [ask.toJSON(), ...groups];
}

function addOption(sub: SlashCommandSubcommandBuilder, option: CommandOption): void {
  const described = <T extends { setName(n: string): T; setDescription(d: string): T; setRequired(r: boolean): T }>(o: T) =>
    o.setName(option.name).setDescription(option.description).setRequired(option.required);
  switch (option.kind) {
    case "tool":
    case "model":
      sub.addStringOption((o) => described(o).setAutocomplete(true));
      return;
    case "choice":
      sub.addStringOption((o) => described(o).addChoices(...(option.choices ?? []).map((choice) => ({ name: choice, value: choice }))));
      return;
    case "text":
      sub.addStringOption((o) => (option.maxLength ? described(o).setMaxLength(option.maxLength) : described(o)));
      return;
    case "channel":
      sub.addChannelOption(described);
      return;
    case "user":
      sub.addUserOption(described);
      return;
    case "role":
      sub.addRoleOption(described);
      return;
    case "integer":
      sub.addIntegerOption((o) => described(o).setMinValue(1));
      return;
  }
}
