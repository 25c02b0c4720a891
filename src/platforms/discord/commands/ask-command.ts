import type { ChatInputCommandInteraction, ThreadChannel } from "discord.js";
import type { App } from "../../../app.js";
import type { Logger } from "../../../log.js";
import type { TurnRequest } from "../../../runner/types.js";
import { NO_PINGS } from "../allowed-mentions.js";
import { conversationOf } from "../conversation.js";
import { describeDiscordError } from "../errors.js";
import { actorFlags, memberRoleIds } from "../permissions.js";
import { DiscordReplySink, type StepPlace } from "../reply-sink.js";
import { canHoldThreads, carryIntoThread, openStepThread, threadStepPlace } from "../step-threads.js";
import { replyEphemeral } from "./ephemeral.js";

/**
 * `/ask question:` — acknowledged at once (Discord allows 3 seconds), then the turn runs: steps
 * in a thread on the bot's reply (follow-up messages where no thread can be made), and the
 * answer edits the deferred reply.
 */
export async function runAsk(interaction: ChatInputCommandInteraction, app: App, adminUserIds: readonly string[], logger: Logger): Promise<void> {
  const question = interaction.options.getString("question", true).trim();
  if (question === "") {
    await replyEphemeral(interaction, "Please type a question after `/ask`.");
    return;
  }
  try {
    await interaction.deferReply();
  } catch (error) {
    logger.warn({ err: describeDiscordError(error) }, "could not acknowledge /ask in time; the turn was not run");
    return;
  }
  const { isAdmin } = actorFlags(interaction.user.id, interaction.memberPermissions, adminUserIds, !interaction.inGuild());
  const request: TurnRequest = {
    ...conversationOf(interaction.channelId, interaction.guildId),
    userId: interaction.user.id,
    userName: interaction.inCachedGuild() ? interaction.member.displayName : interaction.user.displayName,
    text: question,
    isAdmin,
    parentChannelId: interaction.channel?.isThread() ? (interaction.channel.parentId ?? undefined) : undefined,
    userRoleIds: memberRoleIds(interaction.member),
  };
  const result = await app.runner.submit(request, askReplySink(interaction, request, app, logger));
  // An ignored user gets no answer: take back the "thinking…" reply the defer showed.
  if (result.status === "ignored") {
    await interaction.deleteReply().catch((error) => logger.warn({ err: describeDiscordError(error) }, "could not remove the deferred reply"));
  }
}

function askReplySink(interaction: ChatInputCommandInteraction, request: TurnRequest, app: App, logger: Logger): DiscordReplySink {
  let thread: ThreadChannel | undefined;
  const followUps: StepPlace = {
    async post(content) {
      const posted = await interaction.followUp({ content, allowedMentions: NO_PINGS });
      return { edit: (next) => interaction.editReply({ message: posted.id, content: next, allowedMentions: NO_PINGS }) };
    },
  };

  return new DiscordReplySink({
    logger,
    stepStartDelayMs: app.config.STEP_START_DELAY_MS,
    async openStepPlace() {
      const channel = interaction.channel;
      if (!canHoldThreads(channel)) return followUps;
      try {
        const reply = await interaction.fetchReply();
        thread = await openStepThread(channel, reply.id, request.text, app.store, logger);
      } catch (error) {
        logger.warn({ err: describeDiscordError(error) }, "could not find the /ask reply to open a thread on; using follow-ups");
      }
      return thread ? threadStepPlace(thread) : followUps;
    },
    answer: {
      first: (content) => interaction.editReply({ content, allowedMentions: NO_PINGS }),
      more: (content) => interaction.followUp({ content, allowedMentions: NO_PINGS }),
    },
    beforeAnswer(reply) {
      if (thread && reply.status === "answered") {
        carryIntoThread(app.store, thread, reply.turnId, { author: request.userName ?? request.userId, text: request.text }, reply.text);
      }
    },
  });
}
