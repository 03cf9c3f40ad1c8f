import "server-only";
import { findUserByEmail, insertUser, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { requirePublishedApp } from "@/lib/apps/tenant";
import { normalizeEmail } from "@/lib/email/address";
import { markAddressProven } from "./prove-address";

/** Set by the popup before it leaves for Google: which app's end user is signing in. */
export const OAUTH_APP_COOKIE = "oauth_app";

type GoogleProfile = {
  sub?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  name?: string | null;
};

/** Finds or creates the user of a Google identity in a tenant; null refuses the sign-in. */
export async function googleSignIn(tenantAppId: string | null, profile: unknown): Promise<User | null> {
  const p = (profile ?? {}) as GoogleProfile;
  if (!p.email || !p.sub || p.email_verified === false) return null;
  const tenantId = tenantAppId ? (await requirePublishedApp(tenantAppId).catch(() => null))?.id : null;
  if (tenantAppId && !tenantId) return null;
  const email = normalizeEmail(p.email);
  const tenant = tenantId ?? null;
  let user: User | undefined =
    (await findUserByEmail(tenant, email)) ??
    (await insertUser({
      tenantId: tenant,
      email,
      googleSub: p.sub,
      name: p.name ?? undefined,
      emailVerifiedAt: new Date(),
    })) ??
    (await findUserByEmail(tenant, email));
  if (!user || user.disabledAt) return null;
  // Google vouches for the address: a password set before it was verified goes (pre-hijacking).
  user = (await markAddressProven(user)).user;
  if (!user.googleSub) user = (await updateUser(user.id, { googleSub: p.sub })) ?? user;
  return user;
}
