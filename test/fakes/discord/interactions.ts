import type { InteractionInput } from "./fake-discord.js";
import { member, type ChannelPayload } from "./payloads.js";
import type { InteractionRecord, World } from "./world.js";

/**
 * An INTERACTION_CREATE payload for a chat-input command or its autocomplete, with what
 * discord.js requires: `entitlements`, `authorizing_integration_owners`, the member's computed
 * `permissions` in a guild (the user alone in a DM).
 */
export function interactionPayload(
  world: World,
  type: number,
  record: InteractionRecord,
  channel: ChannelPayload,
  commandId: string,
  input: InteractionInput,
): Record<string, unknown> {
  const guildId = record.guildId;
  const options = (input.options ?? []).map((o) => ({
    type: optionType(o.value),
    name: o.name,
    value: o.value,
    ...(o.focused ? { focused: true } : {}),
  }));
  const where = guildId
    ? {
        guild_id: guildId,
        guild: { id: guildId, locale: "en-US", features: [] },
        member: {
          ...member(world.guild(guildId).members.get(input.user.id) ?? [], input.user),
          permissions: world.permissionsOf(guildId, input.user.id).toString(),
        },
        authorizing_integration_owners: { "0": guildId },
        context: 0,
      }
    : { user: input.user, authorizing_integration_owners: { "0": "0" }, context: 1 };
  return {
    id: record.id,
    application_id: world.application.id,
    type,
    token: record.token,
    version: 1,
    data: {
      id: commandId,
      name: input.name,
      type: 1,
      options: input.subcommand ? [{ type: 1, name: input.subcommand, options }] : options,
      ...(guildId ? { guild_id: guildId } : {}),
    },
    channel: { ...channel },
    channel_id: channel.id,
    ...where,
    app_permissions: (guildId ? world.permissionsOf(guildId, world.bot.id) : 0n).toString(),
    locale: "en-US",
    guild_locale: "en-US",
    entitlements: [],
    attachment_size_limit: 10_485_760,
  };
}

function optionType(value: string | number | boolean): number {
  if (typeof value === "boolean") return 5;
  if (typeof value === "number") return Number.isInteger(value) ? 4 : 10;
  return 3;
}
