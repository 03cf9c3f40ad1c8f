import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { getPlanCapabilities } from "./capabilities";
import type { PlanId } from "./catalogue";

const MB = 1024 * 1024;

/** Bytes as the cards say them: whole megabytes ("20 MB"), one decimal otherwise. */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** The bullet points of a plan card, read from the plan's capabilities (never typed twice). */
export function planFeatures(planId: PlanId): string[] {
  const c = getPlanCapabilities(planId);
  const lines = [
    c.maxDataItems === 1
      ? messages.planFeatureDataItemsOne
      : fillTemplate(messages.planFeatureDataItems, { n: c.maxDataItems.toLocaleString("en-US") }),
    fillTemplate(messages.planFeatureUploads, { size: formatMegabytes(c.maxUploadBytes) }),
    c.maxLiveActiveTools === 1
      ? messages.planFeatureLiveToolsOne
      : fillTemplate(messages.planFeatureLiveTools, { n: c.maxLiveActiveTools }),
    fillTemplate(messages.planFeatureToolsPerApp, { n: c.maxToolsPerApp }),
    fillTemplate(messages.planFeatureWebScraper, {
      pages: c.webScraperMaxPages,
      depth: c.webScraperMaxDepth,
    }),
    fillTemplate(messages.planFeatureModelCalls, {
      perMinute: c.modelCallsPerMinute.toLocaleString("en-US"),
      perDay: c.modelCallsPerDay.toLocaleString("en-US"),
    }),
  ];
  if (c.editToolSettings) lines.push(messages.planFeatureToolSettings);
  if (c.photoFields) lines.push(messages.planFeaturePhotoFields);
  if (c.hideWatermarkByDefault) lines.push(messages.planFeatureNoWatermark);
  if (c.generatedAppSettings) lines.push(messages.planFeatureAppSettings);
  return lines;
}
