import "server-only";
import { findAppById } from "@/db/queries/apps";
import { getPlanCapabilities } from "@/lib/plans/capabilities";
import { FREE_PLAN_ID } from "@/lib/plans/catalogue";
import { ownerPlan } from "@/lib/plans/owner-plan";
import type { WebScraperLimits } from "./crawl";

/** The crawl limits of the app owner's plan: an admin adding a site to someone's app crawls under theirs. */
export async function webScraperLimits(appId: string): Promise<WebScraperLimits> {
  const app = await findAppById(appId);
  const { caps } = app ? await ownerPlan(app.ownerAccountId) : { caps: getPlanCapabilities(FREE_PLAN_ID) };
  return { maxDepth: caps.webScraperMaxDepth, maxPages: caps.webScraperMaxPages };
}
