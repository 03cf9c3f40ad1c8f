import type { Metadata } from "next";
import { Suspense } from "react";
import { AuthCard } from "@/components/auth/auth-card";
import { SignupForm } from "@/components/auth/signup-form";
import { publishedAppOr404 } from "@/lib/apps/public-app";
import { googleConfigured } from "@/lib/env";

export const metadata: Metadata = { title: "Sign up" };

export default async function AppSignupPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await publishedAppOr404(appId);
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted/40 px-4 py-12">
      <div className="w-full max-w-sm">
        <AuthCard title={`Create your ${app.header || "app"} account`}>
          <Suspense>
            <SignupForm
              appId={app.id}
              googleEnabled={googleConfigured()}
              loginHref={`/app/${app.id}/login?method=password`}
            />
          </Suspense>
        </AuthCard>
      </div>
    </main>
  );
}
