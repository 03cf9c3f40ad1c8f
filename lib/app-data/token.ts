import "server-only";
import { AppError } from "@/lib/errors";
import { signedTokens } from "@/lib/security/signed-token";

// The token a space app's own code sends as its bearer: one app, one signed-in user, one session.
// Signed with a key of its own (a builder's session token is refused here, and this one by every
// other route), it names the app, so a token of app A is refused by app B; it names the session,
// so a logout, a password reset or a disable ends it at once (the session row is read on every call).

const tokens = signedTokens({
  audience: "builder:app-runtime",
  salt: "app-runtime",
  info: "builder app runtime token v1",
});

export type AppTokenClaims = { appId: string; userId: string; sessionId: string };

export function signAppToken(claims: AppTokenClaims, ttlSeconds: number) {
  return tokens.sign({ app: claims.appId, sub: claims.userId, sid: claims.sessionId }, ttlSeconds);
}

/** The token's claims, when it is ours, unexpired and for this app; a 401 otherwise. */
export async function verifyAppToken(token: string, appId: string): Promise<AppTokenClaims> {
  const verdict = await tokens.verify(token);
  if (!verdict.ok && verdict.expired) {
    throw new AppError("UNAUTHENTICATED", "appTokenExpired", "APP_TOKEN_EXPIRED");
  }
  const p = verdict.ok ? verdict.payload : null;
  if (!p || p.app !== appId || typeof p.sub !== "string" || typeof p.sid !== "string") {
    throw new AppError("UNAUTHENTICATED", "appTokenInvalid", "APP_TOKEN_INVALID");
  }
  return { appId, userId: p.sub, sessionId: p.sid };
}
