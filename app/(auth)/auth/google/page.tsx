import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { GoogleRedirect } from "@/components/auth/google-redirect";
import { googleConfigured } from "@/lib/env";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: "Continue with Google" };

// Opened as a popup by the Google button: leaves for Google and comes back to /auth/popup-done.
export default async function GooglePopupPage({
  searchParams,
}: {
  searchParams: Promise<{ appId?: string }>;
}) {
  const { appId } = await searchParams;
  if (!googleConfigured())
    return <AuthCard title="Google sign-in" description={messages.googleNotConfigured} />;
  return <GoogleRedirect appId={appId} />;
}
