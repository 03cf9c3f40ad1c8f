import type { Metadata } from "next";
import { Suspense } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { googleConfigured } from "@/lib/env";
import { withAuthQuery } from "@/lib/security/query";

export const metadata: Metadata = { title: "Log in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  return (
    <AuthCard title="Log in" description="Welcome back. Log in to build and publish your AI apps.">
      <Suspense>
        <LoginForm googleEnabled={googleConfigured()} signupHref={withAuthQuery("/signup", search)} />
      </Suspense>
    </AuthCard>
  );
}
