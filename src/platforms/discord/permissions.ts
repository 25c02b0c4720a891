import { GuildMember, PermissionFlagsBits, type APIInteractionGuildMember, type PermissionsBitField } from "discord.js";
import type { Role } from "../../contract/inbound.js";

/**
 * Discord's permissions as the core's roles: Manage Server (or Administrator, which `has` counts
 * as every permission) or BOT_ADMIN_USER_IDS is an admin; Manage Messages a moderator.
 */
export function roleOf(userId: string, permissions: Readonly<PermissionsBitField> | null | undefined, adminUserIds: readonly string[]): Role {
  if (adminUserIds.includes(userId) || permissions?.has(PermissionFlagsBits.ManageGuild)) return "admin";
  if (permissions?.has(PermissionFlagsBits.ManageMessages)) return "moderator";
  return "member";
}

/** What the roles mean on Discord, for a refusal. */
export const ROLE_NAMES = {
  admin: "You need the **Manage Server** (or Administrator) permission in this server to do that.",
  moderator: "You need the **Manage Messages** or **Manage Server** permission in this server to do that.",
} as const;

/** The member's role ids, for the workspace's ignored roles (a cached member or an interaction's raw one). */
export function memberRoleIds(member: GuildMember | APIInteractionGuildMember | null | undefined): string[] {
  if (!member) return [];
  return member instanceof GuildMember ? [...member.roles.cache.keys()] : member.roles;
}
