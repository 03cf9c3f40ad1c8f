import { TokenRefresher } from "@/components/auth/token-refresher";
import type { PublicPage } from "@/lib/apps/public-app";
import type { Session } from "@/lib/auth/session";
import { publicAppMessages } from "@/lib/messages/public-app";
import { DraftBanner } from "./draft-banner";
import { MembershipArea } from "./membership-area";
import { SignInArea } from "./sign-in-area";
import { SpaceAppFrame } from "./space-app-frame";

/**
 * /app/{appId} of a space app with a version: a slim bar (the app's name, the end user's sign-in
 * area) over the app's own code, which takes the rest of the screen. The app draws its own page,
 * so the bar stays in the visitor's theme rather than the app's style.
 */
export function PublishedSpaceApp({
  page,
  session,
  documentUrl,
}: {
  page: PublicPage;
  session: Session | null;
  documentUrl: string;
}) {
  const signedIn = session !== null && session.tenantId === page.appId;
  const name = page.appHeader || publicAppMessages.publicUntitledApp;
  return (
    <div className="flex h-dvh flex-col bg-background text-foreground" data-public-app={page.appId}>
      {page.draft && <DraftBanner draft="app" />}
      <header className="@container flex min-h-12 shrink-0 items-center justify-between gap-3 border-b border-border px-3 py-1.5 sm:px-4">
        <h1 className="min-w-0 truncate text-base font-semibold">{name}</h1>
        {page.published && (
          <div className="flex shrink-0 items-center gap-2">
            <MembershipArea appId={page.appId} session={session} />
            <SignInArea appId={page.appId} email={signedIn ? session.email : null} />
          </div>
        )}
      </header>
      <main className="min-h-0 flex-1">
        <SpaceAppFrame appId={page.appId} url={documentUrl} title={name} published={page.published} />
      </main>
      {signedIn && <TokenRefresher />}
    </div>
  );
}
