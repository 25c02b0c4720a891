import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { BotError } from "../errors.js";

/**
 * Secrets at rest (platform tokens): AES-256-GCM with a key from SECRETS_KEY. A sealed value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): the key id says which key sealed it, so a
 * rotation finds what is left to re-encrypt, and SECRETS_KEY_PREVIOUS still opens the older ones.
 * The context (which row a value belongs to) is authenticated too: a sealed token copied into
 * another row does not open there.
 */

const FORMAT = "v1";
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** What SECRETS_KEY must be, for error messages. */
export const SECRETS_KEY_FORMAT = "32 random bytes as 64 hex digits or as base64 (e.g. the output of `openssl rand -base64 32`)";

/** The key's 32 bytes, from 64 hex digits or base64 (standard or URL-safe); undefined for anything else. */
export function decodeSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** A value that no configured key opens, or that is not a sealed value at all; never says more than that. */
export class SecretsError extends BotError<"secret_unreadable"> {
  override readonly name = "SecretsError";
  constructor(message: string, options?: ErrorOptions) {
    super("secret_unreadable", message, options);
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** Seals with the current key; opens with the current or the previous one. */
export class SecretBox {
  private readonly current: Key;
  private readonly previous?: Key;

  constructor(current: string, previous?: string) {
    this.current = keyOf(current, "SECRETS_KEY");
    this.previous = previous ? keyOf(previous, "SECRETS_KEY_PREVIOUS") : undefined;
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.current.bytes, iv);
    cipher.setAAD(Buffer.from(context, "utf8"));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [FORMAT, this.current.id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  open(sealed: string, context: string): string {
    const [format, keyId, iv, tag, body, ...rest] = sealed.split(".");
    if (format !== FORMAT || rest.length > 0 || iv === undefined || tag === undefined || body === undefined) throw new SecretsError("not a sealed secret");
    const key = [this.current, this.previous].find((candidate) => candidate?.id === keyId);
    if (!key) throw new SecretsError("sealed with a key that is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    } catch {
      throw new SecretsError("a sealed secret failed its integrity check (damaged, or moved from another row)");
    }
  }

  /** Sealed with the current key: nothing for a rotation to do. */
  isCurrent(sealed: string): boolean {
    return sealed.split(".")[1] === this.current.id;
  }
}

function keyOf(text: string, variable: string): Key {
  const bytes = decodeSecretsKey(text);
  if (!bytes) throw new SecretsError(`${variable} must be ${SECRETS_KEY_FORMAT}`);
  // A short fingerprint, not the key: telling keys apart needs no more.
  return { id: createHash("sha256").update("agent-bot secrets key\0").update(bytes).digest("base64url").slice(0, 8), bytes };
}
