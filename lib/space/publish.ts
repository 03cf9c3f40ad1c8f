import "server-only";
import type { App } from "@/db/schema";
import { setPublished } from "@/lib/apps/publish";
import type { AppAnswer } from "@/lib/apps/schemas";
import { warmPublishedBuild } from "./preview/service";

/**
 * POST /api/apps/{appId}/status: setPublished, and when a space app goes live its current
 * version is built into the build cache, so its first visitor does not wait for the build. A
 * build that fails (or cannot run) does not stop the publish: the app shows its build errors.
 */
export async function setPublishedAndBuild(app: App, status: App["status"]): Promise<AppAnswer> {
  const answer = await setPublished(app, status);
  if (app.type === "space" && status === "active") await warmPublishedBuild(app.id);
  return answer;
}
