import { TokenRefresher } from "@/components/auth/token-refresher";
import type { PublicPage } from "@/lib/apps/public-app";
import type { Session } from "@/lib/auth/session";
import { MembershipArea } from "./membership-area";
import { PublicAppView } from "./public-app-view";
import { SignInArea } from "./sign-in-area";

/**
 * A public page as served: the app's view with its sign-in area. End users sign in only to
 * published apps, so a draft seen by its builder has no sign-in area.
 */
export function PublicPageView({
  page,
  session,
  view = "main",
}: {
  page: PublicPage;
  session: Session | null;
  view?: "main" | "tool";
}) {
  const signedIn = session !== null && session.tenantId === page.appId;
  return (
    <>
      <PublicAppView
        appId={page.appId}
        appType={page.appType}
        appHeader={page.appHeader}
        content={page.content}
        style={page.style}
        watermarkHidden={page.watermarkHidden}
        tools={page.tools}
        mainPage={page.mainPage}
        draft={page.draft}
        page={view}
        mode="live"
        run={{
          toolId: page.toolId,
          userCanEditResults: page.userCanEditResults,
          email: signedIn ? session.email : null,
          signInRequired: page.signInRequired,
          published: page.published,
          showRunContext: page.builderView,
        }}
        headerRight={
          page.published ? (
            <>
              {/* Paid memberships: the gate for signed-in end users without one. */}
              <MembershipArea appId={page.appId} session={session} />
              <SignInArea appId={page.appId} email={signedIn ? session.email : null} />
            </>
          ) : undefined
        }
      />
      {signedIn && <TokenRefresher />}
    </>
  );
}
