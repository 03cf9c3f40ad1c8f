// The format of SECRETS_KEY (and each key of SECRETS_KEY_PREVIOUS): 32 random bytes written as 64
// hex characters or as base64 (`openssl rand -base64 32`, or `openssl rand -hex 32`). Anything
// else fails at start (lib/env.ts), naming the variable: a key that silently meant something
// else would seal every secret under a key nobody can reproduce.

const HEX = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;

export const SECRETS_KEY_FORMAT =
  "must be 32 bytes written as 64 hex characters or base64 (openssl rand -base64 32)";

/** The key's 32 bytes, or null when the text is not such a key. */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim();
  if (HEX.test(t)) return Buffer.from(t, "hex");
  if (!BASE64.test(t)) return null;
  const bytes = Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : null;
}

/** SECRETS_KEY_PREVIOUS: keys separated by commas (blank entries ignored). */
export function splitKeyList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
