import "server-only";
import { findRuntimeApp, type RuntimeApp } from "@/db/queries/app-data";
import { findSession, type SessionUserRow, touchSession } from "@/db/queries/sessions";
import { canEditApp } from "@/lib/apps/access";
import { isLive } from "@/lib/auth/session";
import { SESSION_TOUCH_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import type { EndUserActor, ServiceActor } from "./access";
import { verifyAppToken } from "./token";

// Who is calling the data API of an app: nobody (no token: anonymous), or the user its bearer
// token names, checked against their live session on every call. Only this app's end users and
// its builder ever hold a token of it (lib/app-data/runtime-token.ts); anything else is a 401.

type RoleRow = Pick<SessionUserRow, "tenantId" | "account" | "appRole">;

/** Whether this signed-in user belongs to the app: one of its end users, or its builder. */
export function belongsToApp(row: RoleRow, app: Pick<RuntimeApp, "id" | "ownerAccountId">) {
  return row.tenantId === null ? canEditApp(row, app) : row.tenantId === app.id;
}

/** The app's builder and the end users it made admins are the app's admins. */
export function isAppAdmin(row: RoleRow, app: Pick<RuntimeApp, "id" | "ownerAccountId">) {
  return belongsToApp(row, app) && (row.tenantId === null || row.appRole === "admin");
}

export type Caller = { app: RuntimeApp; actor: EndUserActor };

/**
 * The app (with one entity's schema file, when named) and its caller. The app and the token's
 * session are read at once; the app must be a space app, and a draft answers its builder alone.
 */
export async function callerOf(
  appId: string,
  bearer: string | null,
  entityPath: string | null,
): Promise<Caller> {
  const claims = bearer === null ? null : verifyAppToken(bearer, appId);
  const [app, row] = await Promise.all([
    findRuntimeApp(appId, entityPath),
    claims?.then((c) => findSession(c.sessionId).then((r) => (r && r.id === c.userId ? r : null))) ?? null,
  ]);
  if (app?.type !== "space") throw new AppError("NOT_FOUND", "appNotFound");
  let actor: EndUserActor = { kind: "anonymous" };
  if (claims) {
    if (!row || !isLive(row) || !belongsToApp(row, app)) {
      throw new AppError("UNAUTHENTICATED", "appTokenInvalid", "APP_TOKEN_INVALID");
    }
    if (row.disabledAt !== null) throw new AppError("FORBIDDEN", "userDisabled");
    if (row.lastSeenAt.getTime() < Date.now() - SESSION_TOUCH_S * 1000) await touchSession(row.sessionId);
    actor = { kind: "user", userId: row.id, admin: isAppAdmin(row, app) };
  }
  const admin = actor.kind === "user" && actor.admin;
  if (app.status !== "active" && !admin) throw new AppError("NOT_FOUND", "appNotFound");
  return { app, actor };
}

/**
 * The app's service role, for its own backend functions: the app (with the entity's schema file)
 * and a caller that every access level lets through. Only the functions' gateway calls this, with
 * the id of the app whose function process it serves (never an id the function sent). A draft's
 * function is its builder's code as much as a published one's, so the app's status is not checked.
 */
export async function serviceCallerOf(
  appId: string,
  entityPath: string | null,
): Promise<{ app: RuntimeApp; actor: ServiceActor }> {
  const app = await findRuntimeApp(appId, entityPath);
  if (app?.type !== "space") throw new AppError("NOT_FOUND", "appNotFound");
  return { app, actor: { kind: "service" } };
}
