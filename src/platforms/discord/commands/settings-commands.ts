import type { AutocompleteInteraction, ChatInputCommandInteraction } from "discord.js";
import type { App } from "../../../app.js";
import type { BotCommand } from "../../../runner/commands.js";
import { conversationOf } from "../conversation.js";
import { actorFlags, DENIED_HINT } from "../permissions.js";
import { COMMAND } from "./definitions.js";
import { replyEphemeral } from "./ephemeral.js";

/** Discord shows at most 25 autocomplete choices. */
const MAX_CHOICES = 25;

/** `/tools`, `/memory` and `/settings`, checked and carried out by BotCommands. */
export async function runSettingsCommand(interaction: ChatInputCommandInteraction, app: App, adminUserIds: readonly string[]): Promise<void> {
  const command = readCommand(interaction);
  if (!command) {
    await replyEphemeral(interaction, "I don't know that command. Try `/tools list` or `/memory show`.");
    return;
  }
  const conversation = conversationOf(interaction.channelId, interaction.guildId);
  const flags = actorFlags(interaction.user.id, interaction.memberPermissions, adminUserIds, !interaction.inGuild());
  const result = app.commands.execute(command, conversation, { userId: interaction.user.id, ...flags });
  const text = result.denied ? `${result.text} ${DENIED_HINT[result.denied]}` : result.text;
  await replyEphemeral(interaction, text);
}

/** Tool names for `/tools enable|disable tool:`, with their state in this server. */
export async function completeToolName(interaction: AutocompleteInteraction, app: App): Promise<void> {
  const typed = interaction.options.getFocused().trim().toLowerCase();
  const workspace = conversationOf(interaction.channelId ?? "", interaction.guildId);
  const choices = app.access
    .states(workspace)
    .filter((state) => state.name.toLowerCase().includes(typed))
    .slice(0, MAX_CHOICES)
    .map((state) => ({ name: `${state.name} (${state.enabled ? "on" : "off"})`, value: state.name }));
  await interaction.respond(choices);
}

function readCommand(interaction: ChatInputCommandInteraction): BotCommand | undefined {
  const sub = interaction.options.getSubcommand(false);
  if (interaction.commandName === COMMAND.tools) {
    if (sub === "list") return { kind: "tools_list" };
    if (sub === "enable" || sub === "disable") {
      return { kind: "tools_set", tool: interaction.options.getString("tool", true), enabled: sub === "enable" };
    }
  }
  if (interaction.commandName === COMMAND.memory) {
    if (sub === "show") return { kind: "memory_show" };
    if (sub === "clear") return { kind: "memory_clear" };
  }
  if (interaction.commandName === COMMAND.settings) return readSettingsCommand(interaction, sub);
  return undefined;
}

function readSettingsCommand(interaction: ChatInputCommandInteraction, sub: string | null): BotCommand | undefined {
  const { options } = interaction;
  switch (sub) {
    case "show":
      return { kind: "settings_show" };
    case "channel-add":
    case "channel-remove":
      return {
        kind: "settings_channels",
        action: sub === "channel-add" ? "add" : "remove",
        channel: options.getChannel("channel")?.id ?? interaction.channelId,
      };
    case "channels-all":
      return { kind: "settings_channels", action: "all" };
    case "ignore-user":
    case "unignore-user":
      return { kind: "settings_ignore", target: "user", action: sub.startsWith("un") ? "remove" : "add", id: options.getUser("user", true).id };
    case "ignore-role":
    case "unignore-role":
      return { kind: "settings_ignore", target: "role", action: sub.startsWith("un") ? "remove" : "add", id: options.getRole("role", true).id };
    case "memory":
      return { kind: "settings_memory", window: options.getInteger("exchanges") };
    case "prompt":
      return { kind: "settings_prompt", text: options.getString("text") };
    default:
      return undefined;
  }
}
