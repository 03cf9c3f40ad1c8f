import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PublicPageView } from "@/components/public-app/public-page";
import { loadPublicAppTool } from "@/lib/apps/public-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

type Params = { params: Promise<{ appId: string; toolPath: string }> };

const load = cache(async (appId: string, toolPath: string) => {
  const session = await getPageSession();
  return { session, page: await loadPublicAppTool(appId, toolPath, session) };
});

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { appId, toolPath } = await params;
  const { page } = await load(appId, toolPath);
  return {
    title: page
      ? page.title || messages.publicUntitledTool
      : fillTemplate(messages.toolPathNotFound, { path: toolPath }),
  };
}

// /app/{appId}/tool/{toolPath}: one tool of a generated app (active ones for visitors).
export default async function PublicAppToolPage({ params }: Params) {
  const { appId, toolPath } = await params;
  const { session, page } = await load(appId, toolPath);
  if (!page) notFound();
  return <PublicPageView page={page} session={session} view="tool" />;
}
