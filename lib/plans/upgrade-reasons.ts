import type { MessageKey } from "@/lib/messages";
import { getPlanCapabilities, type PlanCapabilities, planRank } from "./capabilities";
import { PLAN_CATALOGUE, type PlanId } from "./catalogue";

// Why the upgrade dialog was opened: each limit prompt names the capability it ran into, so the
// dialog can say why and point at the lowest plan that lifts it.

const reasonCapability = {
  dataItems: "maxDataItems",
  uploadSize: "maxUploadBytes",
  connectorFiles: "maxConnectorFiles",
  webScraperPages: "webScraperMaxPages",
  photoFields: "photoFields",
  toolSettings: "editToolSettings",
  watermark: "hideWatermarkByDefault",
  generatedAppSettings: "generatedAppSettings",
  liveTools: "maxLiveActiveTools",
  toolsPerApp: "maxToolsPerApp",
  customFields: "maxCustomFields",
  modelCalls: "modelCallsPerDay",
} as const satisfies Record<string, keyof PlanCapabilities>;

export type UpgradeReason = keyof typeof reasonCapability;
export const UPGRADE_REASONS = Object.keys(reasonCapability) as UpgradeReason[];

const reasonMessage: Record<UpgradeReason, MessageKey> = {
  dataItems: "upgradeReasonDataItems",
  uploadSize: "upgradeReasonUploadSize",
  connectorFiles: "upgradeReasonConnectorFiles",
  webScraperPages: "upgradeReasonWebScraperPages",
  photoFields: "upgradeReasonPhotoFields",
  toolSettings: "upgradeToEditToolSettings",
  watermark: "upgradeReasonWatermark",
  generatedAppSettings: "upgradeReasonGeneratedAppSettings",
  liveTools: "upgradeReasonLiveTools",
  toolsPerApp: "upgradeReasonToolsPerApp",
  customFields: "upgradeReasonCustomFields",
  modelCalls: "upgradeReasonModelCalls",
};

export function isUpgradeReason(value: string): value is UpgradeReason {
  return Object.hasOwn(reasonCapability, value);
}

/** The catalogue message the dialog shows for this reason. */
export function upgradeReasonMessage(reason: UpgradeReason): MessageKey {
  return reasonMessage[reason];
}

/**
 * The lowest plan above `currentPlan` whose capability behind `reason` is better (a higher
 * number, or a feature switched on); null when no plan lifts it.
 */
export function recommendedPlanFor(reason: UpgradeReason, currentPlan: string): PlanId | null {
  const key = reasonCapability[reason];
  const current = getPlanCapabilities(currentPlan)[key];
  const better = PLAN_CATALOGUE.filter((p) => p.rank > planRank(currentPlan))
    .sort((a, b) => a.rank - b.rank)
    .find((p) => Number(getPlanCapabilities(p.id)[key]) > Number(current));
  return better?.id ?? null;
}
