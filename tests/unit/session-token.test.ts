import { hkdfSync } from "node:crypto";
import { EncryptJWT } from "jose";
import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { decryptCanonicalToken } from "@/lib/auth/session-token";

// Our fast decryption of session tokens must accept exactly what Auth.js's `decode` accepts.
const secret = "a-test-secret-that-is-long-enough-0123456789";
const salt = "authjs.session-token";
const claims = {
  sub: "5f0c3c3e-8f7e-4c1e-9d1a-1b2c3d4e5f60",
  tid: null,
  sv: 2,
  ev: true,
  email: "a@example.com",
};

const reference = (token: string, s = secret) => decode({ token, secret: s, salt }).catch(() => null);
async function ours(token: string, s = secret) {
  const fast = decryptCanonicalToken(token, s, salt);
  return fast === undefined ? reference(token, s) : fast;
}
const authJsToken = (maxAge = 3600) => encode({ token: claims, secret, salt, maxAge });

describe("decryptCanonicalToken", () => {
  it("decrypts what Auth.js encodes, on the fast path, to the same payload", async () => {
    const token = await authJsToken();
    const fast = decryptCanonicalToken(token, secret, salt);
    expect(fast).not.toBeUndefined();
    expect(fast).toEqual(await reference(token));
    expect(fast).toMatchObject(claims);
  });

  it("rejects a token from another secret or another salt", async () => {
    const token = await authJsToken();
    expect(decryptCanonicalToken(token, `${secret}x`, salt)).toBeNull();
    expect(decryptCanonicalToken(token, secret, "__Secure-authjs.session-token")).toBeNull();
    expect(await reference(token, `${secret}x`)).toBeNull();
  });

  it("agrees with Auth.js on expiry, within its 15 s clock tolerance", async () => {
    for (const maxAge of [-60, -16, -10, 5]) {
      const token = await authJsToken(maxAge);
      expect(await ours(token), `maxAge ${maxAge}`).toEqual(await reference(token));
    }
    expect(decryptCanonicalToken(await authJsToken(-60), secret, salt)).toBeNull();
  });

  it("agrees with Auth.js on every single-character change of a token", async () => {
    const token = await authJsToken();
    const alphabet = ["A", "b", "0", "-", "_", ".", "=", " ", "%"];
    for (let i = 0; i < token.length; i += 3) {
      const swap = alphabet.find((c) => c !== token[i])!;
      const changed = token.slice(0, i) + swap + token.slice(i + 1);
      expect(await ours(changed), `position ${i}`).toEqual(await reference(changed));
    }
  });

  it("agrees with Auth.js on truncated and padded tokens", async () => {
    const token = await authJsToken();
    for (const t of ["", token.slice(0, -1), token.slice(0, -20), `${token}=`, `${token}.`, ` ${token}`]) {
      expect(await ours(t)).toEqual(await reference(t));
    }
  });

  it("accepts a token without kid, and leaves other encryptions to Auth.js", async () => {
    const info = `Auth.js Generated Encryption Key (${salt})`;
    const key64 = new Uint8Array(hkdfSync("sha256", secret, salt, info, 64));
    const noKid = await new EncryptJWT({ ...claims })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(key64);
    expect(decryptCanonicalToken(noKid, secret, salt)).toMatchObject(claims);
    expect(await reference(noKid)).toMatchObject(claims);

    const key32 = new Uint8Array(hkdfSync("sha256", secret, salt, info, 32));
    const gcm = await new EncryptJWT({ ...claims })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setExpirationTime("1h")
      .encrypt(key32);
    expect(decryptCanonicalToken(gcm, secret, salt)).toBeUndefined();
    expect(await ours(gcm)).toMatchObject(claims);
  });

  it("rejects claims Auth.js rejects: not yet valid, non-numeric dates", async () => {
    const info = `Auth.js Generated Encryption Key (${salt})`;
    const key64 = new Uint8Array(hkdfSync("sha256", secret, salt, info, 64));
    const make = (payload: Record<string, unknown>) =>
      new EncryptJWT(payload).setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" }).encrypt(key64);
    const now = Math.floor(Date.now() / 1000);
    for (const payload of [
      { ...claims, nbf: now + 60 },
      { ...claims, nbf: now + 10 },
      { ...claims, exp: String(now + 60) },
      { ...claims, iat: "yesterday" },
    ]) {
      const token = await make(payload);
      expect(decryptCanonicalToken(token, secret, salt)).not.toBeUndefined();
      expect(await ours(token)).toEqual(await reference(token));
    }
  });
});
