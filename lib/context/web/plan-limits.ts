import "server-only";
import { findAccountById } from "@/db/queries/accounts";
import { findAppById } from "@/db/queries/apps";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import type { WebScraperLimits } from "./crawl";

/** The crawl limits of the app owner's plan: an admin adding a site to someone's app crawls under theirs. */
export async function webScraperLimits(appId: string): Promise<WebScraperLimits> {
  const app = await findAppById(appId);
  const owner = app ? await findAccountById(app.ownerAccountId) : undefined;
  const caps = getPlanCapabilities(owner?.plan ?? "lite");
  return { maxDepth: caps.webScraperMaxDepth, maxPages: caps.webScraperMaxPages };
}
