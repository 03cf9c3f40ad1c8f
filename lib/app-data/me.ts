import "server-only";
import { findRuntimeUser, setAppUserData } from "@/db/queries/app-data";
import { AppError } from "@/lib/errors";
import { callerOf } from "./actor";
import { checkedFields } from "./check-fields";
import { BUILT_IN_FIELDS, entitySchemaOf } from "./entity-schema";
import type { RuntimeUser } from "./schemas";

// The signed-in user as a space app's code sees them (auth.me()): who they are, their role in
// the app, and the extra fields the app's User entity declares, stored per end user.

/** The User entity's fields that are the account's own: the app's code cannot write them. */
export const USER_BUILT_IN = [...BUILT_IN_FIELDS, "email", "fullName", "role"] as const;

export const USER_PATH = "entities/User.json";

type UserRow = NonNullable<Awaited<ReturnType<typeof findRuntimeUser>>>;

export function runtimeUserOf(row: UserRow, admin: boolean): RuntimeUser {
  // A builder has no fields of the app's: theirs are an end user's only.
  const extra = row.tenantId === null ? {} : row.appData;
  return {
    ...extra,
    id: row.id,
    email: row.email,
    fullName: row.name,
    role: admin ? "admin" : "user",
    createdAt: row.createdAt.toISOString(),
  };
}

async function signedIn(appId: string, bearer: string | null) {
  const { app, actor } = await callerOf(appId, bearer, USER_PATH);
  if (actor.kind === "anonymous") throw new AppError("UNAUTHENTICATED", "appDataSignInRequired");
  const row = await findRuntimeUser(actor.userId);
  if (!row) throw new AppError("UNAUTHENTICATED", "appTokenInvalid", "APP_TOKEN_INVALID");
  return { app, actor, row };
}

/** GET /api/apps/{appId}/runtime/me */
export async function getMe(appId: string, bearer: string | null): Promise<RuntimeUser> {
  const { actor, row } = await signedIn(appId, bearer);
  return runtimeUserOf(row, actor.admin);
}

/**
 * PATCH /api/apps/{appId}/runtime/me: an end user's own extra fields, checked against the User
 * entity when the app has one. Their role is the app's admins' to give, never their own.
 */
export async function updateMe(
  appId: string,
  bearer: string | null,
  patch: Record<string, unknown>,
): Promise<RuntimeUser> {
  const { app, actor, row } = await signedIn(appId, bearer);
  if (Object.hasOwn(patch, "role")) throw new AppError("FORBIDDEN", "appDataRoleAdminOnly");
  if (row.tenantId === null) throw new AppError("FORBIDDEN", "appDataForbidden");
  const schema =
    app.entityHash && app.entitySchema !== null
      ? entitySchemaOf("User", app.entityHash, app.entitySchema, USER_BUILT_IN)
      : null;
  const data = checkedFields(schema, { ...row.appData, ...patch }, "", USER_BUILT_IN);
  await setAppUserData(app.id, row.id, data);
  return runtimeUserOf({ ...row, appData: data }, actor.admin);
}
