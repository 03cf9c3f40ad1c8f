import "server-only";
import { BEARER_TOKEN_TTL_S } from "@/lib/constants";
import type { Session } from "./session";
import { encodeBearerToken, type SessionClaims } from "./session-token";

export async function issueBearerToken(claims: SessionClaims) {
  return {
    token: await encodeBearerToken(claims),
    expiresAt: new Date(Date.now() + BEARER_TOKEN_TTL_S * 1000).toISOString(),
    tenantId: claims.tid,
  };
}

/** A fresh bearer token from the session the route wrapper already checked against the database. */
export function refreshBearerToken(session: Session) {
  return issueBearerToken({
    sub: session.userId,
    tid: session.tenantId,
    sv: session.sessionVersion,
    ev: session.emailVerified,
    email: session.email,
  });
}
