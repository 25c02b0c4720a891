import { COMMANDS, GROUPS, type Access, type CommandGroup, type CommandOption } from "./catalog.js";

export interface HelpOptions {
  /** How the platform spells a group's command ("/tools", or a renamed Slack command). */
  commandName(group: CommandGroup): string;
  roles: boolean;
}

const WHO: Record<Access, string> = { anyone: "", moderator: " _(moderators and admins)_", admin: " _(admins)_" };

const PLACEHOLDER: Record<CommandOption["kind"], string> = {
  tool: "NAME",
  channel: "#channel",
  user: "@user",
  role: "@role",
  integer: "N",
  text: "TEXT",
};

/** Every command, one line each, from the catalog: the terminal's /help and Slack's usage text. */
export function commandHelp(options: HelpOptions): string {
  return GROUPS.flatMap((group) =>
    COMMANDS.filter((spec) => spec.group === group.name && (options.roles || !spec.needsRoles)).map((spec) => {
      const args = spec.options.map((option) => (option.required ? PLACEHOLDER[option.kind] : `[${PLACEHOLDER[option.kind]}]`));
      const form = [options.commandName(group.name), spec.name, ...args].join(" ");
      return `\`${form}\` ${spec.description}${WHO[spec.access]}`;
    }),
  ).join("\n");
}
