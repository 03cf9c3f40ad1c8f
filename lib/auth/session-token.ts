import { createDecipheriv, createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { decode, encode, type JWT } from "next-auth/jwt";
import { BEARER_TOKEN_TTL_S } from "@/lib/constants";
import { env } from "@/lib/env";

/** What our session JWT carries; everything else is read from the database per request. */
export type SessionClaims = {
  sub: string;
  /** null for builders, the app id for end users of that app */
  tid: string | null;
  /** the server-side session (sessions.id): every request checks it is still live */
  sid: string;
  /** email verified when issued (the proxy reads it to redirect; handlers read the database) */
  ev: boolean;
  email: string;
};

export function usesSecureCookies(): boolean {
  return env().APP_URL.startsWith("https:");
}

/** Auth.js's cookie name; it is also the salt of the token's encryption key. */
export function sessionCookieName(): string {
  return usesSecureCookies() ? "__Secure-authjs.session-token" : "authjs.session-token";
}

export async function decodeSessionToken(token: string): Promise<SessionClaims | null> {
  try {
    const secret = env().AUTH_SECRET;
    const salt = sessionCookieName();
    let payload = decryptCanonicalToken(token, secret, salt);
    // Not the shape Auth.js writes: let Auth.js itself decide, so both accept the same tokens.
    if (payload === undefined) payload = await decode({ token, secret, salt });
    if (!payload || typeof payload.sub !== "string") return null;
    return payload as unknown as SessionClaims;
  } catch {
    return null;
  }
}

/*
 * Auth.js's `decode` derives the key with HKDF and checks its JWK thumbprint on every call,
 * then decrypts through WebCrypto: about 0.6 ms of CPU per request, more than the rest of an
 * authenticated request together. The tokens it writes are always a compact JWE with the
 * header {alg: "dir", enc: "A256CBC-HS512", kid}, so that one shape is decrypted here with
 * node:crypto and a key derived once per (secret, salt) - exactly as Auth.js derives it.
 * Anything else (other headers, padding or whitespace in the encoding) goes to Auth.js.
 */
const CLOCK_TOLERANCE_S = 15; // as Auth.js's decode
const B64URL = /^[A-Za-z0-9_-]+$/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

type DerivedKey = { macKey: Buffer; encKey: Buffer; kid: string };
const derivedKeys = new Map<string, DerivedKey>();

function derivedKey(secret: string, salt: string): DerivedKey {
  const cacheKey = `${salt}\0${secret}`;
  let found = derivedKeys.get(cacheKey);
  if (!found) {
    // @auth/core jwt.ts getDerivedEncryptionKey for A256CBC-HS512.
    const key = Buffer.from(
      hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64),
    );
    // RFC 7638 thumbprint of {kty: "oct", k}, with SHA-512 as Auth.js does for a 512-bit key.
    const jwk = `{"k":"${key.toString("base64url")}","kty":"oct"}`;
    found = {
      macKey: key.subarray(0, 32),
      encKey: key.subarray(32),
      kid: createHash("sha512").update(jwk).digest("base64url"),
    };
    if (derivedKeys.size >= 8) derivedKeys.clear();
    derivedKeys.set(cacheKey, found);
  }
  return found;
}

/**
 * The payload of an Auth.js token of the canonical shape; null when it is invalid (forged,
 * tampered, another key, expired); undefined when it is not of that shape.
 * RFC 7516 compact serialization, RFC 7518 §5.2.5 AES_256_CBC_HMAC_SHA_512.
 */
export function decryptCanonicalToken(token: string, secret: string, salt: string): JWT | null | undefined {
  const parts = token.split(".");
  if (parts.length !== 5) return undefined;
  const [encodedHeader, encryptedKey, encodedIv, encodedCiphertext, encodedTag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (encryptedKey !== "") return undefined;
  for (const part of [encodedHeader, encodedIv, encodedCiphertext, encodedTag]) {
    if (!B64URL.test(part)) return undefined;
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(encodedHeader, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) return undefined;
  for (const name of Object.keys(header))
    if (name !== "alg" && name !== "enc" && name !== "kid") return undefined;
  if (header.alg !== "dir" || header.enc !== "A256CBC-HS512") return undefined;
  const iv = Buffer.from(encodedIv, "base64url");
  const tag = Buffer.from(encodedTag, "base64url");
  const ciphertext = Buffer.from(encodedCiphertext, "base64url");
  if (iv.length !== 16 || tag.length !== 32) return undefined;

  const key = derivedKey(secret, salt);
  if (header.kid !== undefined && header.kid !== key.kid) return null;
  const aad = Buffer.from(encodedHeader, "ascii");
  const aadBits = Buffer.alloc(8);
  aadBits.writeBigUInt64BE(BigInt(aad.length * 8));
  const mac = createHmac("sha512", key.macKey)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(aadBits)
    .digest();
  if (!timingSafeEqual(mac.subarray(0, 32), tag)) return null;

  let payload: unknown;
  try {
    const decipher = createDecipheriv("aes-256-cbc", key.encKey, iv);
    const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    payload = JSON.parse(strictUtf8.decode(plaintext));
  } catch {
    return null;
  }
  return validClaims(payload) ? payload : null;
}

// jose's JWT claims checks as Auth.js's decode configures them: a JSON object; iat, nbf and
// exp numbers when present; not before nbf, not at or after exp, with the clock tolerance.
function validClaims(payload: unknown): payload is JWT {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const claims = payload as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  for (const name of ["iat", "nbf", "exp"]) {
    if (claims[name] !== undefined && typeof claims[name] !== "number") return false;
  }
  if (typeof claims.nbf === "number" && claims.nbf > now + CLOCK_TOLERANCE_S) return false;
  if (typeof claims.exp === "number" && claims.exp <= now - CLOCK_TOLERANCE_S) return false;
  return true;
}

/** A bearer token: the same format as the cookie, valid for an hour (or less: `maxAgeS`). */
export function encodeBearerToken(claims: SessionClaims, maxAgeS = BEARER_TOKEN_TTL_S): Promise<string> {
  return encode({
    token: claims,
    secret: env().AUTH_SECRET,
    salt: sessionCookieName(),
    maxAge: maxAgeS,
  });
}
