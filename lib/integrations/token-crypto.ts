import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// The connectors' OAuth tokens are stored encrypted (AES-256-GCM) under a key derived from
// AUTH_SECRET with HKDF, so a copy of the database alone reads none of them. A sealed value is
// "v1.<iv>.<ciphertext>.<tag>" (base64url); the version leaves room to change the scheme.

const VERSION = "v1";
const keys = new Map<string, Buffer>();

function key(): Buffer {
  const secret = env().AUTH_SECRET;
  let found = keys.get(secret);
  if (!found) {
    found = Buffer.from(hkdfSync("sha256", secret, "integration-tokens", "builder connector tokens v1", 32));
    keys.clear();
    keys.set(secret, found);
  }
  return found;
}

export function sealToken(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv, { authTagLength: 16 });
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/**
 * The token in clear; null when it cannot be opened (sealed under another AUTH_SECRET, or
 * altered): the connection is then as good as revoked and the builder connects again.
 */
export function openToken(sealed: string): string | null {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== VERSION || !iv || body === undefined || !tag) return null;
  try {
    // A fixed tag length: GCM would otherwise accept a shortened (forgeable) tag.
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"), {
      authTagLength: 16,
    });
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}
