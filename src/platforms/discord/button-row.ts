import type { APIActionRowComponent, APIButtonComponentWithCustomId } from "discord.js";

/**
 * A row of buttons as Discord's API takes it. Written as plain JSON rather than with discord.js's
 * ActionRowBuilder and ButtonBuilder: their validation (setEmoji builds and throws validation
 * errors while trying a union's shapes) took about 170 µs per answer in the started bot, for
 * buttons whose every field is fixed here.
 */
export type ButtonRow = APIActionRowComponent<APIButtonComponentWithCustomId>;
