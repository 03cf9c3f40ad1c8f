import "server-only";
import { findAppById, insertAppIfMissing, listAppsByOwner } from "@/db/queries/apps";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { appView } from "./editor-app";
import { AppContent, type AppListAnswer, type CreateAppBody, type CreatedAppAnswer } from "./schemas";

/** The builder's account: apps belong to it. A builder without one has not finished signing up. */
export function requireAccount(session: Session) {
  if (!session.account) throw new AppError("FORBIDDEN", "accountRequired", "ACCOUNT_REQUIRED");
  return session.account;
}

/**
 * POST /api/apps. The client makes the app's id, so a retried create (a lost answer, a double
 * click) makes one app: the second call answers the app the first one made.
 */
export async function createApp(session: Session, body: CreateAppBody): Promise<CreatedAppAnswer> {
  const account = requireAccount(session);
  const content = AppContent.parse({ ...(body.appType === "generated" ? body.genApp : body.app) });
  const type = body.appType;
  const created = await insertAppIfMissing({
    id: body.appId,
    ownerAccountId: account.accountId,
    type,
    header: content.header,
    content,
  });
  if (created) return { created: true, ...appView(created) };
  const existing = await findAppById(body.appId);
  if (!existing || existing.ownerAccountId !== account.accountId || existing.type !== type) {
    throw new AppError("CONFLICT", "appAlreadyExists", "APP_EXISTS");
  }
  return { created: false, ...appView(existing) };
}

/** GET /api/apps: the builder's apps, last edited first. */
export async function listApps(session: Session): Promise<AppListAnswer> {
  const account = requireAccount(session);
  const rows = await listAppsByOwner(account.accountId);
  return {
    apps: rows.map((r) => ({
      appId: r.id,
      header: r.header,
      appType: r.type,
      status: r.status,
      // A single-tool app is its one tool; a space app has none (it is a chat app).
      toolsCount: r.type === "generated" ? r.toolsCount : r.type === "tool" ? 1 : 0,
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}
