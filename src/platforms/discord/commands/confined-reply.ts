import {
  ApplicationIntegrationType,
  AttachmentBuilder,
  InteractionContextType,
  type ChatInputCommandInteraction,
  type Interaction,
  type InteractionReplyOptions,
} from "discord.js";
import type { ConfinedReply } from "../../../contract/surface.js";
import { NO_PINGS, pingOnly } from "../allowed-mentions.js";
import { feedbackButtons } from "../feedback-buttons.js";
import { discordCall, type DiscordPosted } from "../surface.js";

/** Discord lets an interaction's token post follow-ups for 15 minutes; the answer keeps to five of them. */
const INTERACTION_TOKEN_MS = 15 * 60 * 1000;
const MAX_FOLLOW_UPS = 5;

/**
 * The app was installed to the user, not to this server (or this is a DM between people): the
 * bot is no member here and can answer through the interaction alone. A DM with the bot itself
 * is not confined: the bot may post there.
 */
export function installedToUserOnly(interaction: Interaction): boolean {
  const owners = interaction.authorizingIntegrationOwners ?? {};
  return owners[ApplicationIntegrationType.GuildInstall] === undefined && interaction.context !== InteractionContextType.BotDM;
}

/** A message of the interaction's (its reply, or a follow-up) that edits and deletes itself through the interaction's token. */
function interactionMessage(interaction: ChatInputCommandInteraction, id: string | "@original"): Omit<DiscordPosted, "id"> {
  return {
    editableUntil: interaction.createdTimestamp + INTERACTION_TOKEN_MS,
    edit: (content, allowedMentions, components) => interaction.editReply({ message: id, content, allowedMentions, ...(components ? { components } : {}) }),
    remove: () => interaction.deleteReply(id),
  };
}

/** The deferred reply as the answer's placeholder; where the bot is no member, the answer's only place (a ConfinedReply). */
export function commandReply(interaction: ChatInputCommandInteraction, replyId: string, confined: boolean): DiscordPosted | (DiscordPosted & ConfinedReply) {
  const reply: DiscordPosted = { id: replyId, ...interactionMessage(interaction, "@original") };
  if (!confined) return reply;
  const followUp = async (options: InteractionReplyOptions): Promise<DiscordPosted> => {
    const message = await discordCall(() => interaction.followUp(options));
    return { id: message.id, ...interactionMessage(interaction, message.id) };
  };
  return {
    ...reply,
    confined: {
      maxFollowUps: MAX_FOLLOW_UPS,
      followUp: (text, options) =>
        followUp({
          content: text,
          allowedMentions: options.notify ? pingOnly(options.notify) : NO_PINGS,
          ...(options.feedback !== undefined ? { components: [feedbackButtons(options.feedback)] } : {}),
        }),
      followUpFile: async (file) => {
        await followUp({ content: file.note, files: [new AttachmentBuilder(Buffer.from(file.text, "utf8"), { name: file.name })], allowedMentions: NO_PINGS });
      },
    },
  };
}
