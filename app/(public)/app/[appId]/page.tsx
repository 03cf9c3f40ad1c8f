import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PublicPageView } from "@/components/public-app/public-page";
import { PublishedSpaceApp } from "@/components/public-app/published-space-app";
import { loadPublicApp } from "@/lib/apps/public-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { publishedDocumentLink } from "@/lib/space/preview/service";

type Params = { params: Promise<{ appId: string }> };

// The metadata and the page both need the app: read it once per request.
const load = cache(async (appId: string) => {
  const session = await getPageSession();
  return { session, page: await loadPublicApp(appId, session) };
});

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { page } = await load((await params).appId);
  return { title: page ? page.title || messages.publicUntitledApp : messages.notFoundTitle };
}

// /app/{appId}: the published app's main page; a draft only for its builder, with a banner. A
// space app runs its current version in a sandboxed frame (until it has one, the page says so).
export default async function PublicAppPage({ params }: Params) {
  const { session, page } = await load((await params).appId);
  if (!page) notFound();
  const space = page.appType === "space" ? await publishedDocumentLink(page.appId) : null;
  if (space) return <PublishedSpaceApp page={page} session={session} documentUrl={space.url} />;
  return <PublicPageView page={page} session={session} />;
}
