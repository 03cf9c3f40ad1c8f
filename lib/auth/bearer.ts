import "server-only";
import { BEARER_TOKEN_TTL_S } from "@/lib/constants";
import type { BearerTokenAnswer } from "./schemas";
import type { Session } from "./session";
import { encodeBearerToken, type SessionClaims } from "./session-token";

/** A bearer token for a session: an hour, but never past the session's absolute end. */
export async function issueBearerToken(
  claims: SessionClaims,
  sessionEndsAt: Date,
): Promise<BearerTokenAnswer> {
  const ttlS = Math.min(BEARER_TOKEN_TTL_S, Math.floor((sessionEndsAt.getTime() - Date.now()) / 1000));
  return {
    token: await encodeBearerToken(claims, ttlS),
    expiresAt: new Date(Date.now() + ttlS * 1000).toISOString(),
    tenantId: claims.tid,
  };
}

/** A fresh bearer token of the session the route wrapper already checked against the database. */
export function refreshBearerToken(session: Session) {
  return issueBearerToken(
    {
      sub: session.userId,
      tid: session.tenantId,
      sid: session.sessionId,
      ev: session.emailVerified,
      email: session.email,
    },
    session.expiresAt,
  );
}
