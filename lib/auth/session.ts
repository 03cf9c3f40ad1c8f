import "server-only";
import { findSessionUser, type SessionUserRow } from "@/db/queries/users";
import { decodeSessionToken, type SessionClaims, sessionCookieName } from "./session-token";

export type Session = {
  userId: string;
  tenantId: string | null;
  email: string;
  emailVerified: boolean;
  disabled: boolean;
  sessionVersion: number;
  account: SessionUserRow["account"];
  via: "cookie" | "bearer";
};

/** Reads the token from `Authorization: Bearer` or the session cookie. */
export function readSessionToken(headers: Headers, cookieValue: (name: string) => string | undefined) {
  const authz = headers.get("authorization");
  if (authz?.startsWith("Bearer ")) return { token: authz.slice(7).trim(), via: "bearer" as const };
  const token = cookieValue(sessionCookieName());
  return token ? { token, via: "cookie" as const } : null;
}

/**
 * The session behind a token, checked against the database: a deleted user, or a token
 * issued before the session version was bumped (password reset), is no session.
 */
export async function loadSession(token: string, via: Session["via"]): Promise<Session | null> {
  const claims: SessionClaims | null = await decodeSessionToken(token);
  if (!claims) return null;
  const row = await findSessionUser(claims.sub);
  if (!row || row.sessionVersion !== claims.sv || row.tenantId !== claims.tid) return null;
  return {
    userId: row.id,
    tenantId: row.tenantId,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    disabled: row.disabledAt !== null,
    sessionVersion: row.sessionVersion,
    account: row.account,
    via,
  };
}
