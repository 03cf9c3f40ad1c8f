import "server-only";
import { hkdfSync } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { env } from "@/lib/env";

// Short-lived HS256 tokens for one purpose each (the connectors' OAuth state, a preview link):
// each purpose signs with its own key derived from AUTH_SECRET and its own audience, so a token
// made for one purpose is refused by every other.

const ALG = "HS256";

export type SignedTokenPurpose = {
  /** The token's audience, e.g. "builder:space-preview". */
  audience: string;
  /** HKDF salt and info of the purpose's key; changing them ends every token issued before. */
  salt: string;
  info: string;
};

export type SignedTokenVerdict =
  | { ok: true; payload: Record<string, unknown> }
  | { ok: false; expired: boolean };

export function signedTokens(purpose: SignedTokenPurpose) {
  let cached: { secret: string; key: Uint8Array } | null = null;
  const key = (): Uint8Array => {
    const secret = env().AUTH_SECRET;
    if (cached?.secret !== secret) {
      cached = { secret, key: new Uint8Array(hkdfSync("sha256", secret, purpose.salt, purpose.info, 32)) };
    }
    return cached.key;
  };

  return {
    key,
    async sign(
      claims: Record<string, unknown>,
      ttlSeconds: number,
    ): Promise<{ token: string; expiresAt: Date }> {
      const expiresAt = new Date((Math.floor(Date.now() / 1000) + ttlSeconds) * 1000);
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: ALG })
        .setAudience(purpose.audience)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(key());
      return { token, expiresAt };
    },
    /** The payload when the token is ours, for this purpose and unexpired. */
    async verify(token: string): Promise<SignedTokenVerdict> {
      try {
        const { payload } = await jwtVerify(token, key(), { algorithms: [ALG], audience: purpose.audience });
        return { ok: true, payload };
      } catch (err) {
        return { ok: false, expired: err instanceof joseErrors.JWTExpired };
      }
    },
  };
}
