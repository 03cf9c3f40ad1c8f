import type { Metadata } from "next";
import { ChangeEmailForm } from "@/components/account/change-email-form";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { PlanSection } from "@/components/account/plan-section";
import { SessionsSection } from "@/components/account/sessions-section";
import { ResetPasswordRequest } from "@/components/auth/reset-password-request";
import { getPageSession } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const session = await getPageSession();
  return (
    <div className="mx-auto grid max-w-2xl gap-8 p-6">
      <h1 className="text-2xl font-semibold tracking-tight">Account settings</h1>
      <section className="grid gap-3">
        <h2 className="font-medium">Email</h2>
        <p className="text-sm text-muted-foreground">
          You sign in as <span className="font-medium text-foreground">{session?.email}</span>
        </p>
        <ChangeEmailForm />
      </section>
      {session?.account && <PlanSection account={session.account} />}
      <section className="grid gap-3">
        <h2 className="font-medium">Password</h2>
        <ChangePasswordForm />
        <p className="text-sm text-muted-foreground">
          Forgot it? We'll email you a link to choose a new password.
        </p>
        <ResetPasswordRequest defaultEmail={session?.email} />
      </section>
      <SessionsSection />
    </div>
  );
}
