import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { AnalyticsView } from "@/components/analytics/analytics-view";
import { AnalyticsNotPublished } from "@/components/analytics/not-published";
import { getAppAnalytics } from "@/lib/analytics/analytics";
import { lastDays } from "@/lib/analytics/range";
import { AnalyticsQuery } from "@/lib/analytics/schemas";
import { findEditableApp } from "@/lib/apps/access";
import { getPageSession } from "@/lib/auth/page-session";
import { ANALYTICS_PRESET_DAYS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

type Props = {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The app's owner (or an admin) sees it; anybody else gets the editor's 404, as for a missing app. */
const editableApp = cache(async (appId: string) => {
  const found = await findEditableApp(await getPageSession(), appId);
  if (!found) notFound();
  return found.app;
});

const nameOf = (header: string) => header.trim() || messages.untitledApp;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const app = await editableApp((await params).appId);
  return { title: fillTemplate(messages.analyticsPageTitle, { name: nameOf(app.header) }) };
}

/**
 * The range named by the address: ?days=7|30|90 (the last days up to today), or ?from=&to=; the
 * default range when it names none, or one that is not valid.
 */
function rangeOf(search: Record<string, string | string[] | undefined>): AnalyticsQuery {
  const days = Number(search.days);
  if ((ANALYTICS_PRESET_DAYS as readonly number[]).includes(days)) return lastDays(days);
  const parsed = AnalyticsQuery.safeParse({ from: search.from, to: search.to });
  return parsed.success ? parsed.data : {};
}

// /analytics/app/{appId} - the app's analytics, only once it is published
export default async function AnalyticsPage({ params, searchParams }: Props) {
  const app = await editableApp((await params).appId);
  if (app.status !== "active") return <AnalyticsNotPublished appId={app.id} appName={nameOf(app.header)} />;
  const query = rangeOf(await searchParams);
  const data = await getAppAnalytics(app, query).catch((err) => {
    // A range the service refuses (backwards, too long) falls back to the default one.
    if ((err as { code?: string }).code === "INVALID_RANGE") return getAppAnalytics(app, {});
    throw err;
  });
  return <AnalyticsView key={app.id} initial={data} />;
}
