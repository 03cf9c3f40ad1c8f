import type { Metadata } from "next";
import { Suspense } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { SignupForm } from "@/components/auth/signup-form";
import { googleConfigured } from "@/lib/env";
import { withAuthQuery } from "@/lib/security/query";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignupPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  return (
    <AuthCard title="Create your account" description="Build AI apps and tools grounded in your own data.">
      <Suspense>
        <SignupForm googleEnabled={googleConfigured()} loginHref={withAuthQuery("/login", search)} />
      </Suspense>
    </AuthCard>
  );
}
