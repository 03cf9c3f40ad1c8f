import { decode, encode } from "next-auth/jwt";
import { BEARER_TOKEN_TTL_S } from "@/lib/constants";
import { env } from "@/lib/env";

/** What our session JWT carries; everything else is read from the database per request. */
export type SessionClaims = {
  sub: string;
  /** null for builders, the app id for end users of that app */
  tid: string | null;
  /** users.session_version when issued: bumping it ends every older session */
  sv: number;
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
    const payload = await decode({ token, secret: env().AUTH_SECRET, salt: sessionCookieName() });
    if (!payload || typeof payload.sub !== "string") return null;
    return payload as unknown as SessionClaims;
  } catch {
    return null;
  }
}

/** A bearer token: the same format as the cookie, valid for an hour. */
export function encodeBearerToken(claims: SessionClaims): Promise<string> {
  return encode({
    token: claims,
    secret: env().AUTH_SECRET,
    salt: sessionCookieName(),
    maxAge: BEARER_TOKEN_TTL_S,
  });
}
