import { parseBudgetAmount } from "./budget-amount.js";
import { z } from "zod";
import { decodeSecretsKey, SECRETS_KEY_FORMAT } from "../store/secrets.js";

/** Environment values arrive as strings; these helpers give each variable one clear rule. */
export const positiveInt = (fallback: number) =>
  z.coerce
    .number({ message: "a whole number greater than 0" })
    .int({ message: "a whole number greater than 0" })
    .positive({ message: "a whole number greater than 0" })
    .default(fallback);

export const nonNegativeInt = (fallback: number) =>
  z.coerce
    .number({ message: "a whole number, 0 or more" })
    .int({ message: "a whole number, 0 or more" })
    .min(0, { message: "a whole number, 0 or more" })
    .default(fallback);

export const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], { message: "true or false" })
    .optional()
    .transform((v) => (v === undefined ? fallback : ["true", "1", "yes", "on"].includes(v)));

export const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .optional();

export const optionalUrl = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .pipe(z.url({ message: "a URL such as http://127.0.0.1:11434/v1" }).optional())
  .optional();

/** A proxy's address: http:// or https://, with a port and perhaps a user and password. */
export const proxyUrl = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .pipe(z.url({ protocol: /^https?$/, message: "a URL such as http://proxy.example.com:3128" }).optional())
  .optional();

/** A slash command name; the leading "/" is optional in the environment. */
export const slashCommand = (fallback: string) =>
  z
    .string()
    .trim()
    .regex(/^\/?[a-z0-9][a-z0-9_-]{0,31}$/, { message: 'a slash command name such as /ask (lower case, digits, "-" or "_")' })
    .transform((s) => (s.startsWith("/") ? s : `/${s}`))
    .default(fallback);

/** An http(s) URL; `placeholder` (e.g. "{lang}") may appear and is filled in later. */
export const urlTemplate = (fallback: string, placeholder?: string) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine((s) => isHttpUrl(placeholder ? s.replaceAll(placeholder, "en") : s), {
      message: placeholder ? `an http(s) URL, optionally with ${placeholder}` : "an http(s) URL",
    });

function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export const idList = z
  .string()
  .default("")
  .transform((s) =>
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  );

/** Tokens ("50000", "50k") or dollars ("$20", "20 USD"); empty, 0 or "unlimited" means no limit (undefined). */
export const budgetAmount = z
  .string()
  .trim()
  .optional()
  .transform((s, context) => {
    if (!s || /^(0|unlimited)$/i.test(s)) return undefined;
    const amount = parseBudgetAmount(s);
    if (!amount) {
      context.addIssue({ code: "custom", message: 'tokens ("50000", "50k") or dollars ("$20", "20 USD"), or unlimited' });
      return z.NEVER;
    }
    return amount;
  });

/** A number of tokens per day; empty, 0 or "unlimited" means no limit (undefined). */
export const tokenBudget = z
  .string()
  .trim()
  .regex(/^(\d+|unlimited|)$/i, "a whole number of tokens, or unlimited")
  .optional()
  .transform((s) => (s && /^\d+$/.test(s) && Number(s) > 0 ? Number(s) : undefined));

/** A key for secrets at rest (SECRETS_KEY): 32 bytes as 64 hex digits or base64; kept as written. */
export const secretsKey = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .refine((s) => s === undefined || decodeSecretsKey(s) !== undefined, { message: SECRETS_KEY_FORMAT })
  .optional();
