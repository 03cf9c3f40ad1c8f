import type { Metadata } from "next";
import { AdminOnly } from "@/components/admin/admin-only";
import { BuildersAdmin } from "@/components/admin/builders-admin";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.adminBuildersTitle };

// /admin/builders - the operator sets plans and admin rights without payments. Only for
// administrators (the routes behind it check again); anybody else is told so.
export default async function AdminBuildersPage() {
  const session = await getPageSession();
  const account = session?.account;
  if (!account?.isAdmin) return <AdminOnly />;
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 p-4 sm:p-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{messages.adminBuildersTitle}</h1>
        <p className="text-sm text-muted-foreground">{messages.adminBuildersDescription}</p>
      </div>
      <BuildersAdmin selfAccountId={account.accountId} />
    </div>
  );
}
