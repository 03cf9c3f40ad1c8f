import { FREE_PLAN_ID, findPlan, type PlanId } from "./catalogue";

// The ONE place where a plan's limits and features are decided. Every check in the product
// (routes, services, UI) asks getPlanCapabilities or the helpers below; no other file compares
// plan names.

export type PlanCapabilities = {
  /** "A lite account may hold at most 1 data item". */
  maxDataItems: number;
  /** "Maximum size is the base size on lite and twice that on paid plans". */
  maxUploadBytes: number;
  /** "The connector allows 5 files on paid and 1 on lite". */
  maxConnectorFiles: number;
  /** "Web scraper depth: 2 on lite, 3 otherwise". */
  webScraperMaxDepth: number;
  /** "Pages: 20 on lite, 50 on explorer, 100 otherwise". */
  webScraperMaxPages: number;
  /** "Photo is for paid plans only". */
  photoFields: boolean;
  /** Lite sees 'Upgrade your plan to edit tool settings'. */
  editToolSettings: boolean;
  /** Paid plans "hide the watermark by default". */
  hideWatermarkByDefault: boolean;
  /** Generated-app settings show for "paid tier moon and above". */
  generatedAppSettings: boolean;
  /** Tools that may be active (live) at once across the account: "the plan's live tool limit". */
  maxLiveActiveTools: number;
  /** "the maximum number of tools allowed per app ({n})". */
  maxToolsPerApp: number;
  /** Input fields a builder may add to one tool: "Max custom fields". */
  maxCustomFields: number;
  /**
   * Data an account's apps may ingest per calendar month, UTC, before 'Monthly data processing
   * limit has been reached': bytes of files, characters of text and fetched pages.
   */
  monthlyProcessingBytes: number;
  /**
   * Model calls a builder may trigger (magic create, the space chat, previews of runs, and every
   * later AI helper), each reserved before the call: a burst allowance per minute...
   */
  modelCallsPerMinute: number;
  /** ...and a budget per day (a 24-hour window from the first call). */
  modelCallsPerDay: number;
};

const MB = 1024 * 1024;
/** The base upload size (lite's; paid plans get twice it), left open by the spec: our choice, 10 MB. */
export const BASE_UPLOAD_BYTES = 10 * MB;

// Per-plan numbers the spec leaves open ("not shown"); our choice, recorded in docs/plans-and-billing.md,
// "Plans and their limits".
const tierLimits: Record<
  PlanId,
  Pick<PlanCapabilities, "maxDataItems" | "maxLiveActiveTools" | "maxToolsPerApp" | "maxCustomFields">
> = {
  lite: { maxDataItems: 1, maxLiveActiveTools: 1, maxToolsPerApp: 3, maxCustomFields: 5 },
  explorer: { maxDataItems: 25, maxLiveActiveTools: 5, maxToolsPerApp: 10, maxCustomFields: 15 },
  monetizer: { maxDataItems: 100, maxLiveActiveTools: 20, maxToolsPerApp: 20, maxCustomFields: 25 },
  moon: { maxDataItems: 500, maxLiveActiveTools: 50, maxToolsPerApp: 30, maxCustomFields: 40 },
  agency: { maxDataItems: 2000, maxLiveActiveTools: 200, maxToolsPerApp: 50, maxCustomFields: 60 },
};

// The monthly processing limit (the spec leaves the figure open): our choice, in docs/data-sources.md,
// "Data sources: ingestion core".
const monthlyProcessing: Record<PlanId, number> = {
  lite: 25 * MB,
  explorer: 250 * MB,
  monetizer: 1024 * MB,
  moon: 5 * 1024 * MB,
  agency: 20 * 1024 * MB,
};

// The operator pays the model provider for every call a builder triggers: our choice, in
// docs/plans-and-billing.md, "A builder's model budget". End users' runs of published apps are held by
// the app's own run limits.
const modelCalls: Record<PlanId, Pick<PlanCapabilities, "modelCallsPerMinute" | "modelCallsPerDay">> = {
  lite: { modelCallsPerMinute: 5, modelCallsPerDay: 100 },
  explorer: { modelCallsPerMinute: 15, modelCallsPerDay: 500 },
  monetizer: { modelCallsPerMinute: 30, modelCallsPerDay: 2000 },
  moon: { modelCallsPerMinute: 60, modelCallsPerDay: 5000 },
  agency: { modelCallsPerMinute: 120, modelCallsPerDay: 20000 },
};

// "Pages: 20 on lite, 50 on explorer, 100 otherwise" (the web scraper's crawl).
const webScraperPages: Record<PlanId, number> = {
  lite: 20,
  explorer: 50,
  monetizer: 100,
  moon: 100,
  agency: 100,
};

/** The plan's rank in the tier order (lite 0); an unknown plan ranks as lite. */
export function planRank(plan: string): number {
  return findPlan(plan).rank;
}

/** Every plan above the free one is paid; an unknown plan is not. */
export function isPaidPlan(plan: string): boolean {
  return planRank(plan) > planRank(FREE_PLAN_ID);
}

/** Limits and features of a plan; an unknown plan gets lite's. */
export function getPlanCapabilities(plan: string): PlanCapabilities {
  const { id, rank } = findPlan(plan);
  const paid = isPaidPlan(id);
  return {
    ...tierLimits[id],
    ...modelCalls[id],
    monthlyProcessingBytes: monthlyProcessing[id],
    maxUploadBytes: paid ? 2 * BASE_UPLOAD_BYTES : BASE_UPLOAD_BYTES,
    maxConnectorFiles: paid ? 5 : 1,
    webScraperMaxDepth: paid ? 3 : 2,
    webScraperMaxPages: webScraperPages[id],
    photoFields: paid,
    editToolSettings: paid,
    hideWatermarkByDefault: paid,
    generatedAppSettings: rank >= planRank("moon"),
  };
}

/**
 * "The builder account view applies when accountType is builder and (hasBusinessInfo is true
 * or the plan is not lite)".
 */
export function isBuilderAccountView(account: {
  accountType: string;
  hasBusinessInfo: boolean;
  plan: string;
}): boolean {
  return account.accountType === "builder" && (account.hasBusinessInfo || isPaidPlan(account.plan));
}
