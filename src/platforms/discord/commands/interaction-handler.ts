import type { Interaction } from "discord.js";
import type { App } from "../../../app.js";
import type { Logger } from "../../../log.js";
import { PLATFORM } from "../conversation.js";
import { describeDiscordError } from "../errors.js";
import { runAsk } from "./ask-command.js";
import { COMMAND } from "./definitions.js";
import { completeToolName, runSettingsCommand } from "./settings-commands.js";

/** Slash commands and their autocomplete. An interaction id is handled once, however often it is delivered. */
export class InteractionHandler {
  constructor(
    private readonly app: App,
    private readonly logger: Logger,
    private readonly adminUserIds: readonly string[],
  ) {}

  handle(interaction: Interaction): void {
    void this.dispatch(interaction).catch((error) =>
      this.logger.warn(
        { err: describeDiscordError(error), interactionId: interaction.id, command: commandName(interaction) },
        "could not answer a Discord interaction",
      ),
    );
  }

  private async dispatch(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) {
      if (interaction.commandName === COMMAND.tools) await completeToolName(interaction, this.app);
      else await interaction.respond([]);
      return;
    }
    if (!interaction.isChatInputCommand()) return;
    if (!this.app.store.events.firstDelivery(PLATFORM, `interaction:${interaction.id}`)) return;
    const logger = this.logger.child({ interactionId: interaction.id, command: interaction.commandName });
    if (interaction.commandName === COMMAND.ask) await runAsk(interaction, this.app, this.adminUserIds, logger);
    else await runSettingsCommand(interaction, this.app, this.adminUserIds);
  }
}

function commandName(interaction: Interaction): string | undefined {
  return interaction.isCommand() || interaction.isAutocomplete() ? interaction.commandName : undefined;
}
