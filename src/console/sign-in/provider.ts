import type { z } from "zod";
import { BotError } from "../../errors.js";

/** Who signed in through a platform, and the workspaces their sign-in lists (each still checked against the bot's own view). */
export interface PlatformIdentity {
  platform: string;
  userId: string;
  name?: string;
  workspaceIds: string[];
}

/** A platform's OAuth2 / OpenID Connect sign-in: where to send the browser, and what its code is worth. */
export interface SignInProvider {
  /** The path segment (/login/NAME) and the platform whose workspaces it opens. */
  name: string;
  label: string;
  authorizeUrl(state: string, redirectUri: string): string;
  identify(code: string, redirectUri: string): Promise<PlatformIdentity>;
}

/** An answer from a sign-in server slower than this fails the sign-in. */
const TIMEOUT_MS = 10_000;
/** A sign-in server's answer larger than this is refused (a guild list of 200 is a few tens of KB). */
const MAX_BYTES = 1024 * 1024;

export class SignInError extends BotError<"sign_in_failed"> {
  override readonly name = "SignInError";
  constructor(message: string, options?: ErrorOptions) {
    super("sign_in_failed", message, options);
  }
}

/** Fetches JSON from a sign-in server, bounded in time and size, and checks its shape. */
export async function fetchJson<T>(url: string, init: RequestInit, schema: z.ZodType<T>, what: string): Promise<T> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" }).catch((error: unknown) => {
    throw new SignInError(`${what}: ${(error as Error).message}`);
  });
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new SignInError(`${what}: the answer is too large`);
  if (!response.ok) throw new SignInError(`${what}: HTTP ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SignInError(`${what}: not JSON`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new SignInError(`${what}: an answer of another shape`);
  return parsed.data;
}
