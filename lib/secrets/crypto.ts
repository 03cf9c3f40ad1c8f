import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { env, parseSecretsKey, splitKeyList } from "@/lib/env";

// Space app secrets are sealed with AES-256-GCM under SECRETS_KEY, or, when it is unset, under
// a key derived from AUTH_SECRET with HKDF (its own label: no other use of AUTH_SECRET shares
// it). Each value gets a random 96-bit IV, and its app and key name as associated data, so a
// sealed value copied to another app or key fails to open. Beside it the row keeps the key's id,
// a fingerprint of the key: SECRETS_KEY_PREVIOUS holds earlier keys, so values sealed under one
// of them still open until `npm run secrets:rotate` reseals them under the current key.

const HKDF_SALT = "app-secrets";
const HKDF_INFO = "space app secrets v1";

type SealingKey = { id: string; bytes: Buffer };
/** The key values are sealed under, and every key that may open one, by id. */
export type Keyring = { current: SealingKey; all: Map<string, SealingKey> };
export type KeyConfig = { secretsKey?: string; previousKeys?: string; authSecret: string };

/** A key's id: the first 16 hex characters of SHA-256 over a label and the key (not the key). */
function keyOf(bytes: Buffer): SealingKey {
  const id = createHash("sha256").update("app-secrets key id\0").update(bytes).digest("hex").slice(0, 16);
  return { id, bytes };
}

function parsed(text: string): Buffer {
  const bytes = parseSecretsKey(text);
  // lib/env.ts refuses such a key at start; this is for a keyring built from other text.
  if (!bytes) throw new Error("A secrets key must be 32 bytes as 64 hex characters or base64");
  return bytes;
}

export function buildKeyring(config: KeyConfig): Keyring {
  const derived = keyOf(Buffer.from(hkdfSync("sha256", config.authSecret, HKDF_SALT, HKDF_INFO, 32)));
  const current = config.secretsKey ? keyOf(parsed(config.secretsKey)) : derived;
  const all = new Map([[current.id, current]]);
  for (const text of splitKeyList(config.previousKeys ?? "")) {
    const previous = keyOf(parsed(text));
    if (!all.has(previous.id)) all.set(previous.id, previous);
  }
  // With SECRETS_KEY set, the key derived from AUTH_SECRET still opens what was sealed before it was.
  if (!all.has(derived.id)) all.set(derived.id, derived);
  return { current, all };
}

let cached: { source: string; ring: Keyring } | undefined;

/** The keyring of this server's configuration. */
export function serverKeyring(): Keyring {
  const e = env();
  const source = `${e.SECRETS_KEY ?? ""}\n${e.SECRETS_KEY_PREVIOUS ?? ""}\n${e.AUTH_SECRET}`;
  if (cached?.source !== source) {
    cached = {
      source,
      ring: buildKeyring({
        secretsKey: e.SECRETS_KEY,
        previousKeys: e.SECRETS_KEY_PREVIOUS,
        authSecret: e.AUTH_SECRET,
      }),
    };
  }
  return cached.ring;
}

const aad = (appId: string, key: string) => Buffer.from(`${appId}\0${key}`, "utf8");

export type Sealed = { sealedValue: string; keyId: string };

/** Seals one secret's value for that app and key, under the current key. */
export function sealSecret(appId: string, key: string, value: string, ring = serverKeyring()): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", ring.current.bytes, iv, { authTagLength: 16 });
  cipher.setAAD(aad(appId, key));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  const sealedValue = [iv, body, cipher.getAuthTag()].map((b) => b.toString("base64url")).join(".");
  return { sealedValue, keyId: ring.current.id };
}

/**
 * The value in clear, for the server's own use (an app's functions); null when it cannot be
 * opened: its key is no longer configured, or the row was altered or moved. Never sent to a
 * browser, never logged.
 */
export function openSecret(
  appId: string,
  key: string,
  sealed: Sealed,
  ring = serverKeyring(),
): string | null {
  const sealingKey = ring.all.get(sealed.keyId);
  const [iv, body, tag] = sealed.sealedValue.split(".");
  if (!sealingKey || !iv || body === undefined || !tag) return null;
  try {
    // A fixed tag length: GCM would otherwise accept a shortened (forgeable) tag.
    const decipher = createDecipheriv("aes-256-gcm", sealingKey.bytes, Buffer.from(iv, "base64url"), {
      authTagLength: 16,
    });
    decipher.setAAD(aad(appId, key));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
