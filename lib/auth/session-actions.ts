"use server";

import { cookies } from "next/headers";
import { OAUTH_APP_COOKIE } from "@/lib/auth/google";
import { unstable_update } from "@/lib/auth/next-auth";
import { getPageSession } from "@/lib/auth/page-session";
import { usesSecureCookies } from "@/lib/auth/session-token";

/**
 * Re-issues the session cookie with fresh claims (after the email was verified or changed,
 * possibly in another tab). Checks the session itself, like every server action.
 */
export async function refreshSessionAction(): Promise<{ signedIn: boolean; emailVerified: boolean }> {
  const session = await getPageSession();
  if (!session) return { signedIn: false, emailVerified: false };
  await unstable_update({});
  return { signedIn: true, emailVerified: session.emailVerified };
}

/** Before the Google popup leaves: which app's end user signs in (none = a builder). */
export async function rememberOAuthAppAction(appId: string | null): Promise<void> {
  (await cookies()).set(OAUTH_APP_COOKIE, appId ?? "", {
    httpOnly: true,
    secure: usesSecureCookies(),
    sameSite: "lax",
    path: "/",
    maxAge: 600,
  });
}
