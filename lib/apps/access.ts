import "server-only";
import { findAppById } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { MessageKey } from "@/lib/messages";

export { isUuid };

/** Whether the caller may edit the app: its owner, or an admin ("admins get deeper controls"). */
export function canEditApp(session: Pick<Session, "account">, app: Pick<App, "ownerAccountId">): boolean {
  const account = session.account;
  return !!account && (account.accountId === app.ownerAccountId || account.isAdmin);
}

/**
 * The app a builder edits. Anybody but its owner or an admin gets the same 404 as for an app
 * that does not exist, so an id tells a stranger nothing; `notFound` is that 404's message.
 */
export async function loadEditableApp(
  session: Session | null,
  appId: string | undefined,
  notFound: MessageKey = "appNotFound",
): Promise<App> {
  const app = await findEditableApp(session, appId);
  if (!app) throw new AppError("NOT_FOUND", notFound);
  return app;
}

/** The app a builder edits, or nothing when it does not exist or they may not edit it (a page's 404). */
export async function findEditableApp(
  session: Session | null,
  appId: string | undefined,
): Promise<App | undefined> {
  const app = appId && isUuid(appId) ? await findAppById(appId) : undefined;
  return app && session && canEditApp(session, app) ? app : undefined;
}
