import type { InteractionInput } from "./fake-discord.js";
import { ComponentKind, InteractionKind, member, type ChannelPayload, type MessagePayload, type UserPayload } from "./payloads.js";
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
    type: o.attachment ? 11 : optionType(o.value),
    name: o.name,
    value: o.attachment ? o.attachment.id : o.value,
    ...(o.focused ? { focused: true } : {}),
  }));
  const attachments = (input.options ?? []).flatMap((o) => (o.attachment ? [[String(o.attachment.id), o.attachment] as const] : []));
  // Installed to the user only (the bot is not in the server): Discord names the user as the
  // authorizing owner (integration type 1) and gives the app no permissions of a member.
  const userInstalled = guildId !== undefined && !world.guild(guildId).members.has(world.bot.id);
  const where = guildId
    ? {
        guild_id: guildId,
        guild: { id: guildId, locale: "en-US", features: [] },
        member: {
          ...member(world.guild(guildId).members.get(input.user.id) ?? [], input.user),
          permissions: world.permissionsOf(guildId, input.user.id).toString(),
        },
        authorizing_integration_owners: userInstalled ? { "1": input.user.id } : { "0": guildId },
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
      options: subcommandOptions(input, options),
      ...(attachments.length > 0 ? { resolved: { attachments: Object.fromEntries(attachments) } } : {}),
      ...(guildId && !userInstalled ? { guild_id: guildId } : {}),
    },
    channel: { ...channel },
    channel_id: channel.id,
    ...where,
    app_permissions: (guildId && !userInstalled ? world.permissionsOf(guildId, world.bot.id) : 0n).toString(),
    locale: "en-US",
    guild_locale: "en-US",
    entitlements: [],
    attachment_size_limit: 10_485_760,
  };
}

/** A subcommand's options inside its subcommand (type 1), inside its subcommand group (type 2) if it has one. */
function subcommandOptions(input: InteractionInput, options: unknown[]): unknown[] {
  if (!input.subcommand) return options;
  const subcommand = { type: 1, name: input.subcommand, options };
  return input.subcommandGroup ? [{ type: 2, name: input.subcommandGroup, options: [subcommand] }] : [subcommand];
}

function optionType(value: string | number | boolean): number {
  if (typeof value === "boolean") return 5;
  if (typeof value === "number") return Number.isInteger(value) ? 4 : 10;
  return 3;
}

/**
 * An INTERACTION_CREATE payload for a press on a message component (a button): the message it is
 * on, `data.custom_id` and `data.component_type`, and who pressed, as for a command.
 */
export function componentPayload(
  world: World,
  record: InteractionRecord,
  channel: ChannelPayload,
  message: MessagePayload,
  customId: string,
): Record<string, unknown> {
  const guildId = record.guildId;
  // Under an answer of the app installed to a user: that user (the one who asked) authorized it.
  const installer =
    guildId !== undefined && !world.guild(guildId).members.has(world.bot.id)
      ? (((message as { interaction_metadata?: { user?: UserPayload } }).interaction_metadata?.user?.id ?? record.user.id) as string)
      : undefined;
  const where = guildId
    ? {
        guild_id: guildId,
        guild: { id: guildId, locale: "en-US", features: [] },
        member: {
          ...member(world.guild(guildId).members.get(record.user.id) ?? [], record.user),
          permissions: world.permissionsOf(guildId, record.user.id).toString(),
        },
        authorizing_integration_owners: installer ? { "1": installer } : { "0": guildId },
        context: 0,
      }
    : { user: record.user, authorizing_integration_owners: { "0": "0" }, context: 1 };
  return {
    id: record.id,
    application_id: world.application.id,
    type: InteractionKind.MessageComponent,
    token: record.token,
    version: 1,
    message: structuredClone(message),
    data: { custom_id: customId, component_type: ComponentKind.Button },
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
