import { GuildMember, PermissionFlagsBits, type APIInteractionGuildMember, type PermissionsBitField } from "discord.js";

export interface ActorFlags {
  isAdmin: boolean;
  canClearMemory: boolean;
}

/**
 * Who may change settings: admins have Manage Server or Administrator in the guild (`has` counts
 * Administrator as every permission), or are listed in BOT_ADMIN_USER_IDS. Manage Messages may
 * also clear the memory. In a DM the user may clear their own conversation.
 */
export function actorFlags(
  userId: string,
  permissions: Readonly<PermissionsBitField> | null | undefined,
  adminUserIds: readonly string[],
  inDm: boolean,
): ActorFlags {
  const listed = adminUserIds.includes(userId);
  const isAdmin = listed || (permissions?.has(PermissionFlagsBits.ManageGuild) ?? false);
  const canClearMemory = isAdmin || inDm || (permissions?.has(PermissionFlagsBits.ManageMessages) ?? false);
  return { isAdmin, canClearMemory };
}

export const DENIED_HINT = {
  admin: "You need the **Manage Server** (or Administrator) permission in this server to do that.",
  memory: "You need the **Manage Messages** or **Manage Server** permission in this server to do that.",
} as const;

/** The member's role ids, for the workspace's ignored roles (a cached member or an interaction's raw one). */
export function memberRoleIds(member: GuildMember | APIInteractionGuildMember | null | undefined): string[] {
  if (!member) return [];
  return member instanceof GuildMember ? [...member.roles.cache.keys()] : member.roles;
}
