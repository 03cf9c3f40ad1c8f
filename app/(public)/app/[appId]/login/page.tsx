import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { CodeSignInForm } from "@/components/auth/code-sign-in-form";
import { LoginForm } from "@/components/auth/login-form";
import { publishedAppOr404 } from "@/lib/apps/public-app";
import { googleConfigured } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

// End users sign in to one app: by emailed code, by password, or with Google.
export default async function AppLoginPage({
  params,
  searchParams,
}: {
  params: Promise<{ appId: string }>;
  searchParams: Promise<{ method?: string }>;
}) {
  const { appId } = await params;
  const { method } = await searchParams;
  const app = await publishedAppOr404(appId);
  const byPassword = method === "password";
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <div className="w-full max-w-sm">
        <AuthCard title={`Sign in to ${app.header || "the app"}`}>
          <Suspense>
            {byPassword ? (
              <LoginForm
                appId={app.id}
                googleEnabled={googleConfigured()}
                signupHref={`/app/${app.id}/signup`}
              />
            ) : (
              <CodeSignInForm appId={app.id} />
            )}
          </Suspense>
          <Link
            className="text-center text-sm text-muted-foreground underline-offset-4 hover:underline"
            href={byPassword ? `/app/${app.id}/login` : `/app/${app.id}/login?method=password`}
          >
            {byPassword ? "Sign in with an emailed code instead" : "Sign in with a password instead"}
          </Link>
        </AuthCard>
      </div>
    </main>
  );
}
