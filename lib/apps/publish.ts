import "server-only";
import { setAppStatus } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { appView } from "./editor-app";
import type { AppAnswer } from "./schemas";

/** POST /api/apps/{appId}/status: publish (active) or unpublish (draft). "Publishing is reachable by any builder." */
export async function setPublished(app: App, status: App["status"]): Promise<AppAnswer> {
  const saved = await setAppStatus(app.id, status);
  if (!saved) throw new AppError("NOT_FOUND", "appNotFound");
  return appView(saved);
}
