import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AccountSetup } from "@/components/account/account-setup";
import { TokenRefresher } from "@/components/auth/token-refresher";
import { PaymentReturn } from "@/components/billing/payment-return";
import { UpgradeDialogHost } from "@/components/plans/upgrade-dialog-host";
import { BuilderShell } from "@/components/shell/builder-shell";
import { isSidebarOpen } from "@/components/shell/sidebar-state";
import { getPageSession } from "@/lib/auth/page-session";
import { SIDEBAR_COOKIE } from "@/lib/constants";
import { sessionPlan } from "@/lib/plans/owner-plan";

// proxy.ts already redirects; the layout checks again because proxy only redirects pages.
export default async function BuilderLayout({ children }: { children: React.ReactNode }) {
  const session = await getPageSession();
  if (!session || session.tenantId !== null) redirect("/login");
  if (!session.emailVerified) redirect("/auth/verifyEmail");
  const defaultOpen = isSidebarOpen((await cookies()).get(SIDEBAR_COOKIE)?.value);
  const account = session.account;
  return (
    <BuilderShell
      defaultOpen={defaultOpen}
      user={{ email: session.email, plan: sessionPlan(session), isAdmin: account?.isAdmin ?? false }}
    >
      <TokenRefresher />
      <UpgradeDialogHost />
      <PaymentReturn />
      {account ? children : <AccountSetup />}
    </BuilderShell>
  );
}
