import "server-only";
import { db, type Executor } from "@/db/client";
import { insertSession, listLiveSessions, revokeSession, revokeUserSessions } from "@/db/queries/sessions";
import { updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { SESSION_ABSOLUTE_S, SESSION_IDLE_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { claimsFor } from "./claims";
import type { SessionsAnswer } from "./schemas";
import { findLiveSession, type Session } from "./session";
import type { SessionClaims } from "./session-token";

export type SessionMeta = { userAgent?: string | null; ip?: string | null };

const USER_AGENT_MAX = 512;

/** Opens a server-side session for a user who just proved who they are: its token claims and end. */
export async function startSession(
  user: User,
  meta: SessionMeta,
  ex?: Executor,
): Promise<{ claims: SessionClaims; expiresAt: Date }> {
  const row = await insertSession(
    {
      userId: user.id,
      expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_S * 1000),
      userAgent: meta.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip: meta.ip ?? null,
    },
    ex,
  );
  return { claims: claimsFor(user, row.id), expiresAt: row.expiresAt };
}

/**
 * Fresh claims for a token being re-read (Auth.js's jwt callback): null when its session has
 * ended or its user is disabled, so the cookie stops working at once.
 */
export async function refreshClaims(claims: Partial<SessionClaims>): Promise<SessionClaims | null> {
  const row = await findLiveSession(claims);
  if (!row || row.disabledAt) return null;
  return {
    sub: row.id,
    tid: row.tenantId,
    sid: row.sessionId,
    ev: row.emailVerifiedAt !== null,
    email: row.email,
  };
}

/** Logout: the session of this token ends, for its cookie and every bearer token issued from it. */
export async function endSession(claims: Partial<SessionClaims> | null | undefined): Promise<void> {
  if (typeof claims?.sid === "string" && typeof claims.sub === "string")
    await revokeSession(claims.sid, claims.sub);
}

/** The signed-in user's live sessions, for the settings page. */
export async function listSessions(session: Session): Promise<SessionsAnswer> {
  const rows = await listLiveSessions(session.userId, new Date(Date.now() - SESSION_IDLE_S * 1000));
  // This device first, then the others by their last use.
  const ordered = [...rows].sort(
    (a, b) => Number(b.id === session.sessionId) - Number(a.id === session.sessionId),
  );
  return {
    sessions: ordered.map((r) => ({
      id: r.id,
      current: r.id === session.sessionId,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.lastSeenAt.toISOString(),
      userAgent: r.userAgent,
      ip: r.ip,
    })),
  };
}

/** Ends one of the signed-in user's sessions (another device, or this one). */
export async function revokeOwnSession(session: Session, sessionId: string): Promise<{ ok: true }> {
  if (!(await revokeSession(sessionId, session.userId))) throw new AppError("NOT_FOUND", "sessionNotFound");
  return { ok: true };
}

/** "Sign out everywhere": every session of the user ends, this one included. */
export async function signOutEverywhere(session: Session): Promise<{ ok: true }> {
  await revokeUserSessions(session.userId);
  return { ok: true };
}

/** Disables a user: refused everywhere at once, and every session ends (re-enabling revives none). */
export async function disableUser(userId: string): Promise<void> {
  await db().transaction(async (tx) => {
    await updateUser(userId, { disabledAt: new Date() }, tx);
    await revokeUserSessions(userId, undefined, tx);
  });
}
