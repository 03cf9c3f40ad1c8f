import "server-only";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { MessageKey } from "@/lib/messages";
import { type AppWithOwner, findAppWithOwner } from "@/lib/plans/owner-plan";

export { isUuid };

/** Whether the caller may edit the app: its owner, or an admin ("admins get deeper controls"). */
export function canEditApp(session: Pick<Session, "account">, app: Pick<App, "ownerAccountId">): boolean {
  const account = session.account;
  return !!account && (account.accountId === app.ownerAccountId || account.isAdmin);
}

/**
 * An app being edited, with the plan of its owner: the plan its limits come from, whoever edits
 * (an admin on someone's app works under the owner's plan). Both come from one statement.
 */
export type EditedApp = AppWithOwner;

/**
 * The app a builder edits. Anybody but its owner or an admin gets the same 404 as for an app
 * that does not exist, so an id tells a stranger nothing; `notFound` is that 404's message.
 */
export async function loadEditableApp(
  session: Session | null,
  appId: string | undefined,
  notFound: MessageKey = "appNotFound",
): Promise<EditedApp> {
  const found = await findEditableApp(session, appId);
  if (!found) throw new AppError("NOT_FOUND", notFound);
  return found;
}

/** The app a builder edits, or nothing when it does not exist or they may not edit it (a page's 404). */
export async function findEditableApp(
  session: Session | null,
  appId: string | undefined,
): Promise<EditedApp | undefined> {
  const found = appId && isUuid(appId) ? await findAppWithOwner(appId) : undefined;
  return found && session && canEditApp(session, found.app) ? found : undefined;
}
