import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { PublicPageView } from "@/components/public-app/public-page";
import { loadPublicToolByPath } from "@/lib/apps/public-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

type Params = { params: Promise<{ path: string }> };

const load = cache(async (path: string) => ({
  session: await getPageSession(),
  page: await loadPublicToolByPath(path),
}));

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { path } = await params;
  const { page } = await load(path);
  return {
    title: page
      ? page.title || messages.publicUntitledTool
      : fillTemplate(messages.toolPathNotFound, { path }),
  };
}

// /tool/{path}: the public tool path shape, the first published app's active tool with that path.
export default async function PublicToolPathPage({ params }: Params) {
  const { path } = await params;
  const { session, page } = await load(path);
  if (!page) notFound();
  return <PublicPageView page={page} session={session} view="tool" />;
}
