import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from "discord.js";

/**
 * What the log may say about a failed Discord call. Only code, status and message: the error's
 * URL can hold an interaction token, which is a credential for 15 minutes.
 */
export function describeDiscordError(error: unknown): { name: string; code?: number | string; status?: number; message: string } {
  if (error instanceof DiscordAPIError) {
    return { name: error.name, code: error.code, status: error.status, message: error.message };
  }
  if (error instanceof HTTPError) return { name: error.name, status: error.status, message: error.message };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

const discordErrorCode = (error: unknown): number | string | undefined => (error instanceof DiscordAPIError ? error.code : undefined);

/** A short reason for the log when the bot may not do something. */
export function permissionHint(error: unknown): string | undefined {
  switch (discordErrorCode(error)) {
    case RESTJSONErrorCodes.MissingPermissions:
      return "the bot lacks a permission here (code 50013)";
    case RESTJSONErrorCodes.MissingAccess:
      return "the bot cannot see this channel (code 50001)";
    case RESTJSONErrorCodes.UnknownChannel:
      return "the channel was deleted (code 10003)";
    case RESTJSONErrorCodes.UnknownMessage:
      return "the message was deleted (code 10008)";
    default:
      return undefined;
  }
}
