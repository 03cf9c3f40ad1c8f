import "server-only";
import { cookies, headers } from "next/headers";
import { loadSession, readSessionToken, type Session } from "./session";

/** The session of the page being rendered (server components and server actions). */
export async function getPageSession(): Promise<Session | null> {
  const jar = await cookies();
  const found = readSessionToken(await headers(), (name) => jar.get(name)?.value);
  return found ? loadSession(found.token, found.via) : null;
}
