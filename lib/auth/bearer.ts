import "server-only";
import { findUserById } from "@/db/queries/users";
import { AppError } from "@/lib/api/errors";
import { BEARER_TOKEN_TTL_S } from "@/lib/constants";
import { claimsFor } from "./claims";
import type { Session } from "./session";
import { encodeBearerToken, type SessionClaims } from "./session-token";

export async function issueBearerToken(claims: SessionClaims) {
  return {
    token: await encodeBearerToken(claims),
    expiresAt: new Date(Date.now() + BEARER_TOKEN_TTL_S * 1000).toISOString(),
    tenantId: claims.tid,
  };
}

export async function refreshBearerToken(session: Session) {
  const user = await findUserById(session.userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  return issueBearerToken(claimsFor(user));
}
