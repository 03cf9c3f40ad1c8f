import "server-only";
import { findUserByEmail, insertUser, updateUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { requirePublishedApp } from "@/lib/apps/tenant";
import { normalizeEmail } from "./email-address";

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
  let user =
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
  if (!user.googleSub || !user.emailVerifiedAt) {
    user =
      (await updateUser(user.id, {
        googleSub: user.googleSub ?? p.sub,
        emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
      })) ?? user;
  }
  return user;
}
