import {
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type SlashCommandSubcommandBuilder,
} from "discord.js";
import { ASK, COMMANDS, GROUPS, type CommandOption } from "../../../runner/commands/catalog.js";

/**
 * The slash commands as registered with Discord, made from the core's command catalog. Groups
 * for admins (`/tools`, `/settings`) are shown only to members with Manage Server unless a server
 * admin grants them to others in Server Settings → Integrations; the core checks the role again on every call.
 */
export function commandDefinitions(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const ask = new SlashCommandBuilder()
    .setName(ASK.name)
    .setDescription(ASK.description)
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((option) =>
      option.setName(ASK.option.name).setDescription(ASK.option.description).setRequired(true).setMaxLength(ASK.option.maxLength),
    );
  const groups = GROUPS.map((group) => {
    const builder = new SlashCommandBuilder()
      .setName(group.name)
      .setDescription(group.description)
      .setContexts(...(group.inDirectMessages ? [InteractionContextType.Guild, InteractionContextType.BotDM] : [InteractionContextType.Guild]))
      .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);
    if (group.forAdmins) builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
    for (const spec of COMMANDS.filter((command) => command.group === group.name)) {
      builder.addSubcommand((sub) => {
        sub.setName(spec.name).setDescription(spec.description);
        for (const option of spec.options) addOption(sub, option);
        return sub;
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
      sub.addStringOption((o) => described(o).setAutocomplete(true));
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
