import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { loadSession, readSessionToken, type Session } from "./session";

/**
 * The session of the page being rendered (server components and server actions). Cached per
 * request: the layout and the page both ask, and the database is read once. A disabled user
 * has no session on pages (API routes answer them 'User is disabled' instead).
 */
export const getPageSession = cache(async (): Promise<Session | null> => {
  const jar = await cookies();
  const found = readSessionToken(await headers(), (name) => jar.get(name)?.value);
  const session = found ? await loadSession(found.token, found.via) : null;
  return session?.disabled ? null : session;
});
