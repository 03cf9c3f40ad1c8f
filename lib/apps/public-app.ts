import "server-only";
import { notFound } from "next/navigation";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/api/errors";
import { requirePublishedApp } from "./tenant";

/** For public pages: the published app, or Next's 404 page. */
export async function publishedAppOr404(appId: string): Promise<App> {
  try {
    return await requirePublishedApp(appId);
  } catch (err) {
    if (err instanceof AppError) notFound();
    throw err;
  }
}
