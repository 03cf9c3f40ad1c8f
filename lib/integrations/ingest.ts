import "server-only";
import { findAppById } from "@/db/queries/apps";
import { setContextItemStatus } from "@/db/queries/context";
import { findConnection } from "@/db/queries/integrations";
import type { App, ContextItem } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { type AddItemOptions, createItemsWithinLimit, loadEditableItem } from "@/lib/context/items";
import type { ContextItemIdsAnswer } from "@/lib/context/schemas";
import { assertProcessingLeft } from "@/lib/context/usage";
import { AppError } from "@/lib/errors";
import { ownerPlan } from "@/lib/plans/owner-plan";
import { recommendedPlanFor } from "@/lib/plans/upgrade-reasons";
import { queueContextIngest } from "@/lib/queue/enqueue-context";
import { type IntegrationProvider, PROVIDER_NAMES, providerOfSource } from "./config";
import type { ConnectorItem } from "./schemas";

type NewItem = Parameters<typeof createItemsWithinLimit>[1][number];

/**
 * POST /api/context/ingest/metadata?appId=: web sites, Notion pages and databases, Google Drive
 * files, added as pending items whose content a job fetches. At most the plan's connector files
 * per request; all of the request's items within the data-item limit, or none; a Notion or Drive
 * file needs the app owner's connection to that provider (the job reads through it).
 */
export async function ingestMetadata(
  app: App,
  items: ConnectorItem[],
  opts: AddItemOptions = {},
): Promise<ContextItemIdsAnswer> {
  const { plan, caps } = await ownerPlan(app.ownerAccountId);
  const max = caps.maxConnectorFiles;
  const files = items.filter((i) => i.source !== "web scraper");
  if (files.length > max) {
    // A plan that lifts the limit: the upgrade prompt; none: only the reason.
    const upgrade = recommendedPlanFor("connectorFiles", plan) !== null;
    throw new AppError(
      upgrade ? "FORBIDDEN" : "BAD_REQUEST",
      { key: "connectorTooManyFiles", vars: { max } },
      upgrade ? "PLAN_LIMIT" : "connector/too-many-files",
      upgrade ? { upgradeReason: "connectorFiles" } : undefined,
    );
  }
  const providers = new Set(files.map((f) => providerOfSource(f.source)!));
  for (const provider of providers) await assertConnected(app, provider);
  const values = items.map((item) => newItem(app, item));
  // The size is known only once the job reads the source; a month already used up refuses now.
  await assertProcessingLeft(app);
  const created = await createItemsWithinLimit(app, values, opts);
  for (const item of created) await queueContextIngest(item.id);
  return { contextItemIds: created.map((i) => i.id) };
}

async function assertConnected(app: App, provider: IntegrationProvider) {
  if (!(await findConnection(app.ownerAccountId, provider))) {
    throw new AppError(
      "BAD_REQUEST",
      { key: "connectorNotConnected", vars: { provider: PROVIDER_NAMES[provider] } },
      "connector/not-connected",
    );
  }
}

function newItem(app: App, item: ConnectorItem): NewItem {
  const base = { appId: app.id, status: "pending" as const, size: 0, content: null };
  if (item.source === "web scraper") {
    const url = webAddress(item.url);
    return {
      ...base,
      name: siteName(url),
      type: "web page",
      source: "web scraper",
      externalFileUrl: url.href,
    };
  }
  return {
    ...base,
    name: item.name,
    type: item.type,
    source: item.source,
    externalFileId: item.externalFileId,
    externalFileUrl: item.externalFileUrl ?? null,
    provider: providerOfSource(item.source),
  };
}

/** An absolute http(s) address, without credentials or fragment. */
function webAddress(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError("BAD_REQUEST", "contextWebUrlInvalid", "context/invalid-url");
  }
  if (!["http:", "https:"].includes(url.protocol) || !url.hostname || url.username || url.password)
    throw new AppError("BAD_REQUEST", "contextWebUrlInvalid", "context/invalid-url");
  url.hash = "";
  return url;
}

/** "example.com/docs": the host and the path, without a lone or trailing slash. */
function siteName(url: URL): string {
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.host}${path}`.slice(0, 200);
}

const SYNCABLE: readonly ContextItem["source"][] = ["web scraper", "notion", "google drive"];

/**
 * POST /api/context/{id}/sync: reads a web site or a connector's file again ("sync again on
 * demand"); the job sets lastSyncedAt when it ends Synced. An item already waiting for its job is
 * left to it; one being read now is read again after, so a change made meanwhile is not missed.
 */
export async function syncItem(session: Session, id: string) {
  const item = await loadEditableItem(session, id);
  if (!SYNCABLE.includes(item.source))
    throw new AppError("BAD_REQUEST", "contextNotSyncable", "context/not-syncable");
  const app = await findAppById(item.appId);
  const provider = providerOfSource(item.source);
  if (provider && app) await assertConnected(app, provider);
  if (item.status === "pending") return { ok: true };
  if (app) await assertProcessingLeft(app);
  await setContextItemStatus(item.id, "pending");
  await queueContextIngest(item.id);
  return { ok: true };
}
