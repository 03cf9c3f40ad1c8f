import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { VerifyEmailPanel } from "@/components/auth/verify-email-panel";
import { getPageSession } from "@/lib/auth/page-session";
import { appOrigin } from "@/lib/env";
import { safeRedirectPath } from "@/lib/security/redirects";

export const metadata: Metadata = { title: "Verify your email" };

export default async function VerifyEmailPage({
  searchParams,
}: {
  searchParams: Promise<{ continueUrl?: string }>;
}) {
  // The spec's appName parameter is not used: mails name only what we stored, never what a
  // link says (docs/accounts-and-auth.md, "Mails name only what we stored").
  const { continueUrl } = await searchParams;
  const target = safeRedirectPath(continueUrl, appOrigin());
  const session = await getPageSession();
  if (!session)
    redirect(
      `/login?redirectTo=${encodeURIComponent(`/auth/verifyEmail?continueUrl=${encodeURIComponent(target)}`)}`,
    );
  return <VerifyEmailPanel email={session.email} continueUrl={target} verified={session.emailVerified} />;
}
