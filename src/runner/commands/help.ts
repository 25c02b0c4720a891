import { COMMANDS, GROUPS, type CommandOption } from "./catalog.js";
import type { Access, CommandGroup } from "../../contract/commands.js";

export interface HelpOptions {
  /** How the platform spells a group's command ("/tools", or a renamed Slack command). */
  commandName(group: CommandGroup): string;
  roles: boolean;
  /**
   * One person, its operator, in one place (the terminal): no access marks, no "only you see it",
   * no commands about channels or members.
   */
  soleOperator?: boolean;
}

/** Commands that choose among channels or members: nothing to choose where there is one of each. */
const ABOUT_OTHERS = (spec: (typeof COMMANDS)[number]) =>
  spec.name === "channels-all" || spec.options.some((option) => option.kind === "channel" || option.kind === "user");

const WHO: Record<Access, string> = { anyone: "", moderator: " _(moderators and admins)_", admin: " _(admins)_" };

const PLACEHOLDER: Record<CommandOption["kind"], string> = {
  tool: "NAME",
  model: "MODEL",
  choice: "CHOICE",
  channel: "#channel",
  user: "@user",
  role: "@role",
  integer: "N",
  text: "TEXT",
};

/** Every command, one line each, from the catalog: the terminal's /help and Slack's usage text. */
export function commandHelp(options: HelpOptions): string {
  return GROUPS.flatMap((group) =>
    COMMANDS.filter((spec) => spec.group === group.name && (options.roles || !spec.needsRoles) && !(options.soleOperator && ABOUT_OTHERS(spec))).map((spec) => {
      const args = spec.options.map((option, index) => {
        // A text option is named by its name ("schedule add WHEN | TASK": two are typed with a bar between).
        const named = option.kind === "text" ? option.name.toUpperCase() : PLACEHOLDER[option.kind];
        const placeholder = option.kind === "choice" && option.choices ? option.choices.join("|") : named;
        const shown = option.required ? placeholder : `[${placeholder}]`;
        return option.kind === "text" && spec.options[index - 1]?.kind === "text" ? `| ${shown}` : shown;
      });
      const form = [options.commandName(group.name), spec.subgroup, spec.name, ...args].filter(Boolean).join(" ");
      if (options.soleOperator) return `\`${form}\` — ${spec.description.replace(" (only you see it)", "")}`;
      return `\`${form}\` ${spec.description}${WHO[spec.access]}`;
    }),
  ).join("\n");
}
