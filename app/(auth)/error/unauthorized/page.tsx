import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { LogoutRunner } from "@/components/auth/logout-runner";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: "Account not ready" };

// Reached when account creation keeps answering 401: the user is signed out here.
export default async function UnauthorizedPage({
  searchParams,
}: {
  searchParams: Promise<{ paymentId?: string }>;
}) {
  const { paymentId } = await searchParams;
  return (
    <LogoutRunner to={null}>
      <AuthCard title="We couldn't open your account" description={messages.accountCreateFailed}>
        {paymentId && (
          <p className="text-sm">
            Payment reference: <code className="rounded bg-muted px-1.5 py-0.5">{paymentId}</code>
          </p>
        )}
        <Button asChild>
          <Link href="/login">Back to log in</Link>
        </Button>
      </AuthCard>
    </LogoutRunner>
  );
}
