import "server-only";
import { findAppById } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { isUuid } from "./access";

/** End users sign in only to apps that exist and are published. */
export async function requirePublishedApp(appId: string): Promise<App> {
  const app = isUuid(appId) ? await findAppById(appId) : undefined;
  if (app?.status !== "active") throw new AppError("NOT_FOUND", "appNotFound");
  return app;
}

/** The tenant of an optional app id: null for the builder platform. */
export async function tenantOf(appId: string | undefined | null): Promise<string | null> {
  return appId ? (await requirePublishedApp(appId)).id : null;
}
