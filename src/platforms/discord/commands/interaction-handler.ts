import type { AutocompleteInteraction, ChatInputCommandInteraction, Interaction } from "discord.js";
import type { Logger } from "../../../log.js";
import type { IncomingCommand } from "../../../runner/incoming.js";
import type { PlatformLink } from "../../../runner/platform-link.js";
import { ASK, COMMANDS, type OptionValues } from "../../../runner/commands/catalog.js";
import { describeDiscordError } from "../errors.js";
import { DM_WORKSPACE, PLATFORM } from "../inbound.js";
import { memberRoleIds, roleOf } from "../permissions.js";
import { discordCall, type DiscordPosted } from "../surface.js";
import { replyEphemeral } from "./ephemeral.js";

const INTERACTION_TOKEN_MS = 15 * 60 * 1000;

/** Discord shows at most 25 autocomplete choices. */
const MAX_CHOICES = 25;

/** Slash commands and their autocomplete, translated for the core. */
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
    if (!interaction.isChatInputCommand()) return;
    if (interaction.commandName === ASK.name) return this.ask(interaction);
    const command = this.read(interaction);
    if (!command) return replyEphemeral(interaction, "I don't know that command. Try `/tools list` or `/memory show`.");
    const result = this.link.runCommand(command, this.from(interaction));
    await replyEphemeral(interaction, result.text);
  }

  /** `/ask question:`: acknowledged at once (Discord allows 3 seconds); the answer replaces "thinking…". */
  private async ask(interaction: ChatInputCommandInteraction): Promise<void> {
    const question = interaction.options.getString(ASK.option.name, true).trim();
    if (question === "") return replyEphemeral(interaction, "Please type a question after `/ask`.");
    await interaction.deferReply();
    const reply = await discordCall(() => interaction.fetchReply());
    const placeholder: DiscordPosted = {
      id: reply.id,
      // The interaction's token, which edits the reply, lasts 15 minutes.
      editableUntil: interaction.createdTimestamp + INTERACTION_TOKEN_MS,
      edit: (content, allowedMentions) => interaction.editReply({ content, allowedMentions }),
      remove: () => interaction.deleteReply(),
    };
    const from = this.from(interaction);
    await this.link.receive(
      {
        ...from,
        messageId: reply.id,
        eventId: interaction.id,
        text: question,
        mentionsBot: true,
        viaCommand: true,
        attachments: [],
        isEdit: false,
        isSystem: false,
        isOwn: false,
      },
      { placeholder },
    );
  }

  private async complete(interaction: AutocompleteInteraction): Promise<void> {
    const typed = interaction.options.getFocused().trim().toLowerCase();
    const choices = this.link
      .toolStates(this.from(interaction))
      .filter((state) => state.name.toLowerCase().includes(typed))
      .slice(0, MAX_CHOICES)
      .map((state) => ({ name: `${state.name} (${state.enabled ? "on" : "off"})`, value: state.name }));
    await interaction.respond(interaction.commandName === "tools" ? choices : []);
  }

  /** The command the interaction's subcommand and options describe, through the catalog. */
  private read(interaction: ChatInputCommandInteraction) {
    const spec = COMMANDS.find((command) => command.group === interaction.commandName && command.name === interaction.options.getSubcommand(false));
    if (!spec) return undefined;
    const { options } = interaction;
    const values: OptionValues = {};
    for (const option of spec.options) {
      switch (option.kind) {
        case "tool":
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

  private from(interaction: ChatInputCommandInteraction | AutocompleteInteraction): IncomingCommand {
    const channel = interaction.channel;
    const inThread = channel?.isThread() ?? false;
    return {
      platform: PLATFORM,
      workspaceId: interaction.guildId ?? DM_WORKSPACE,
      channelId: interaction.channelId ?? "",
      parentChannelId: inThread ? (channel as { parentId: string | null }).parentId ?? undefined : undefined,
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

