import "server-only";
import { findSession, type SessionUserRow, touchSession } from "@/db/queries/sessions";
import { SESSION_IDLE_S, SESSION_TOUCH_S } from "@/lib/constants";
import { decodeSessionToken, type SessionClaims, sessionCookieName } from "./session-token";

export type Session = {
  /** The server-side session (sessions.id) this token belongs to. */
  sessionId: string;
  /** When the session ends whatever happens (its absolute lifetime). */
  expiresAt: Date;
  userId: string;
  tenantId: string | null;
  email: string;
  emailVerified: boolean;
  disabled: boolean;
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

/** Whether a session row still stands: not revoked, not past its absolute end, not idle too long. */
export function isLive(
  row: Pick<SessionUserRow, "revokedAt" | "expiresAt" | "lastSeenAt">,
  now = Date.now(),
) {
  return (
    row.revokedAt === null &&
    row.expiresAt.getTime() > now &&
    row.lastSeenAt.getTime() > now - SESSION_IDLE_S * 1000
  );
}

/**
 * The server-side row behind a token's claims: null when it is revoked (logout, sign out
 * everywhere, password reset), expired or idle, or does not match the claims.
 */
export async function findLiveSession(claims: Partial<SessionClaims>): Promise<SessionUserRow | null> {
  if (typeof claims.sid !== "string") return null;
  const row = await findSession(claims.sid);
  if (!row || row.id !== claims.sub || row.tenantId !== claims.tid || !isLive(row)) return null;
  return row;
}

/** The session behind a token, checked against its server-side row on every request. */
export async function loadSession(token: string, via: Session["via"]): Promise<Session | null> {
  const claims = await decodeSessionToken(token);
  const row = claims ? await findLiveSession(claims) : null;
  if (!row) return null;
  if (row.lastSeenAt.getTime() < Date.now() - SESSION_TOUCH_S * 1000) await touchSession(row.sessionId);
  return {
    sessionId: row.sessionId,
    expiresAt: row.expiresAt,
    userId: row.id,
    tenantId: row.tenantId,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    disabled: row.disabledAt !== null,
    account: row.account,
    via,
  };
}
