import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from "discord.js";
import { splitMessage } from "../../../presenter/split-message.js";
import { NO_PINGS } from "../allowed-mentions.js";
import { DISCORD_MESSAGE_LIMIT } from "../surface.js";

/** Answers a command so that only its user sees it, in as many messages as the text needs. */
export async function replyEphemeral(interaction: ChatInputCommandInteraction | ButtonInteraction, text: string): Promise<void> {
  const [first, ...rest] = splitMessage(text, DISCORD_MESSAGE_LIMIT);
  await interaction.reply({ content: first!, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
  for (const part of rest) await interaction.followUp({ content: part, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
}
