import type { OwnerPlan } from "@/lib/plans/owner-plan";
import type { WebScraperLimits } from "./crawl";

/** The crawl limits of the app owner's plan: an admin adding a site to someone's app crawls under theirs. */
export function webScraperLimits(owner: OwnerPlan): WebScraperLimits {
  return { maxDepth: owner.caps.webScraperMaxDepth, maxPages: owner.caps.webScraperMaxPages };
}
