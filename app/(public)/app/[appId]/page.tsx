import type { Metadata } from "next";
import Link from "next/link";
import { TokenRefresher } from "@/components/auth/token-refresher";
import { Button } from "@/components/ui/button";
import { publishedAppOr404 } from "@/lib/apps/public-app";
import { getPageSession } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "App" };

// The public base of a published app. Its tools arrive with later issues; signing in works now.
export default async function PublicAppPage({ params }: { params: Promise<{ appId: string }> }) {
  const { appId } = await params;
  const app = await publishedAppOr404(appId);
  const session = await getPageSession();
  const signedIn = session?.tenantId === app.id;
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-12">
      <header className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight">{app.header || "Untitled app"}</h1>
        {signedIn ? (
          <div className="flex items-center gap-3 text-sm">
            <span className="text-muted-foreground">Signed in as {session.email}</span>
            <Button asChild variant="outline" size="sm">
              <Link href={`/app/${app.id}/logout`}>Log out</Link>
            </Button>
          </div>
        ) : (
          <Button asChild size="sm">
            <Link href={`/app/${app.id}/login`}>Sign in</Link>
          </Button>
        )}
      </header>
      {signedIn && <TokenRefresher />}
      <p className="text-muted-foreground">Welcome{signedIn ? ` back, ${session.email}` : ""}.</p>
    </main>
  );
}
