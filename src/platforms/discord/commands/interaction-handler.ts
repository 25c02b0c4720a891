import {
  ApplicationIntegrationType,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from "discord.js";
import type { Logger } from "../../../log.js";
import { commandQuestion, type IncomingCommand } from "../../../contract/inbound.js";
import type { PlatformLink } from "../../../contract/link.js";
import { ASK, COMMANDS, GROUPS, type OptionValues } from "../../../runner/commands/catalog.js";
import { NO_PINGS } from "../allowed-mentions.js";
import { readApprovalButton } from "../approval-buttons.js";
import { readFeedbackButton } from "../feedback-buttons.js";
import { describeDiscordError } from "../errors.js";
import { discordOrder, DM_WORKSPACE, PLATFORM } from "../inbound.js";
import { memberRoleIds, roleOf } from "../permissions.js";
import { discordCall } from "../surface.js";
import { commandReply, installedToUserOnly } from "./confined-reply.js";
import { ASK_IMAGE } from "./definitions.js";
import { replyEphemeral } from "./ephemeral.js";

/** Discord shows at most 25 autocomplete choices. */
const MAX_CHOICES = 25;

/** Slash commands, their autocomplete and the approval buttons, translated for the core. */
export class InteractionHandler {
  constructor(
    private readonly link: PlatformLink,
    private readonly logger: Logger,
    private readonly adminUserIds: readonly string[],
  ) {}

  handle(interaction: Interaction): void {
    void this.dispatch(interaction).catch((error) =>
      this.logger.warn({ err: describeDiscordError(error), interactionId: interaction.id }, "could not answer a Discord interaction"),
    );
  }

  private async dispatch(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) return this.complete(interaction);
    if (interaction.isButton()) return this.press(interaction);
    if (!interaction.isChatInputCommand()) return;
    if (interaction.commandName === ASK.name) return this.ask(interaction);
    const command = this.read(interaction);
    if (!command) return replyEphemeral(interaction, "I don't know that command. Try `/tools list` or `/memory show`.");
    const result = await this.link.runCommand(command, this.from(interaction));
    await replyEphemeral(interaction, result.text);
  }

  /**
   * Approve or Deny pressed: the core decides whether this member may. A decision replaces the
   * buttons in the interaction's own response (UPDATE_MESSAGE); anything else goes to the presser alone.
   */
  private async press(interaction: ButtonInteraction): Promise<void> {
    const feedback = readFeedbackButton(interaction.customId);
    if (feedback) return this.vote(interaction, feedback);
    const button = readApprovalButton(interaction.customId);
    if (!button) return;
    const { workspaceId, actor } = this.from(interaction);
    const answer = await this.link.decideApproval({ platform: PLATFORM, workspaceId, ...button, actor });
    if (answer.kind === "decided") await interaction.update({ content: answer.text, components: [], allowedMentions: NO_PINGS });
    else await replyEphemeral(interaction, answer.text);
  }

  /** 👍 or 👎 under an answer: recorded by the core, and the presser alone is told it was counted. */
  private async vote(interaction: ButtonInteraction, button: { turnId: string; vote: "up" | "down" }): Promise<void> {
    const { workspaceId } = this.from(interaction);
    const answer = await this.link.recordFeedback({ platform: PLATFORM, workspaceId, ...button, userId: interaction.user.id });
    await replyEphemeral(interaction, answer.text);
  }

  /**
   * `/ask question: [image:]`: acknowledged at once (Discord allows 3 seconds); the answer replaces
   * "thinking…". Installed to the user where the bot is no member, the answer stays in the
   * interaction (see commandReply), in a workspace of the user's own.
   */
  private async ask(interaction: ChatInputCommandInteraction): Promise<void> {
    const question = interaction.options.getString(ASK.option.name, true).trim();
    if (question === "") return replyEphemeral(interaction, "Please type a question after `/ask`.");
    const image = interaction.options.getAttachment(ASK_IMAGE.name, false);
    const attachments = image ? [{ name: image.name, contentType: image.contentType ?? undefined, size: image.size, url: image.url }] : [];
    await interaction.deferReply();
    const reply = await discordCall(() => interaction.fetchReply());
    const from = this.from(interaction);
    await this.link.receive(
      commandQuestion(from, { messageId: reply.id, eventId: interaction.id, order: discordOrder(interaction.id), text: question, attachments }),
      { placeholder: commandReply(interaction, reply.id, installedToUserOnly(interaction)) },
    );
  }

  /** Tool names (with their state in the server) and model names, as the member types. */
  private async complete(interaction: AutocompleteInteraction): Promise<void> {
    const focused = interaction.options.getFocused(true);
    const typed = String(focused.value).trim().toLowerCase();
    const kind = this.spec(interaction)?.options.find((option) => option.name === focused.name)?.kind;
    const candidates =
      kind === "tool"
        ? (await this.link.toolStates(this.from(interaction))).map((state) => ({ name: `${state.name} (${state.enabled ? "on" : "off"})`, value: state.name }))
        : kind === "model"
          ? this.link.models().map((model) => ({ name: model, value: model }))
          : [];
    await interaction.respond(candidates.filter((choice) => choice.value.toLowerCase().includes(typed)).slice(0, MAX_CHOICES));
  }

  /** The catalog's command for the interaction: its group, subcommand group and subcommand (none for a bare group such as /usage). */
  private spec(interaction: ChatInputCommandInteraction | AutocompleteInteraction) {
    const group = GROUPS.find((candidate) => candidate.name === interaction.commandName);
    if (!group) return undefined;
    if (group.bare) return COMMANDS.find((command) => command.group === group.name);
    const name = interaction.options.getSubcommand(false);
    const subgroup = interaction.options.getSubcommandGroup(false) ?? undefined;
    return COMMANDS.find((command) => command.group === group.name && command.name === name && command.subgroup === subgroup);
  }

  /** The command the interaction's subcommand and options describe, through the catalog. */
  private read(interaction: ChatInputCommandInteraction) {
    const spec = this.spec(interaction);
    if (!spec) return undefined;
    const { options } = interaction;
    const values: OptionValues = {};
    for (const option of spec.options) {
      switch (option.kind) {
        case "tool":
        case "model":
        case "choice":
        case "text":
          values[option.name] = options.getString(option.name);
          break;
        case "integer":
          values[option.name] = options.getInteger(option.name);
          break;
        case "channel":
          values[option.name] = options.getChannel(option.name)?.id;
          break;
        case "user":
          values[option.name] = options.getUser(option.name)?.id;
          break;
        case "role":
          values[option.name] = options.getRole(option.name)?.id;
          break;
      }
    }
    return spec.build(values);
  }

  /**
   * Who asks, and where. Installed to the user where the bot is no member, it is a workspace of
   * the user's own ("user:ID": their settings, memory and budget), where the server's roles mean nothing.
   */
  private from(interaction: ChatInputCommandInteraction | AutocompleteInteraction | ButtonInteraction): IncomingCommand {
    const channel = interaction.channel;
    const inThread = channel?.isThread() ?? false;
    if (installedToUserOnly(interaction)) {
      const { id } = interaction.user;
      // The person who installed the app (for a button, the asker of the answer it is under).
      const owner = interaction.authorizingIntegrationOwners?.[ApplicationIntegrationType.UserInstall] ?? id;
      return {
        platform: PLATFORM,
        workspaceId: `user:${owner}`,
        channelId: interaction.channelId ?? "",
        isDm: !interaction.inGuild(),
        actor: { id, name: interaction.user.displayName, role: roleOf(id, null, this.adminUserIds), isBot: false },
      };
    }
    return {
      platform: PLATFORM,
      workspaceId: interaction.guildId ?? DM_WORKSPACE,
      channelId: interaction.channelId ?? "",
      parentChannelId: inThread ? ((channel as { parentId: string | null }).parentId ?? undefined) : undefined,
      isDm: !interaction.inGuild(),
      actor: {
        id: interaction.user.id,
        name: interaction.inCachedGuild() ? interaction.member.displayName : interaction.user.displayName,
        role: roleOf(interaction.user.id, interaction.memberPermissions, this.adminUserIds),
        isBot: false,
        roleIds: memberRoleIds(interaction.member),
      },
    };
  }
}
