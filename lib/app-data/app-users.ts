import "server-only";
import { findRuntimeApp } from "@/db/queries/app-data";
import { countAppUsers, listAppUsers, setAppUserRole } from "@/db/queries/app-users";
import type { App } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { assertSpaceApp } from "@/lib/space/commit";
import { declaredFields } from "@/lib/space/entities";
import type { AppRole, AppUserPage, AppUsersQuery, AppUserView } from "./app-user-schemas";
import { USER_BUILT_IN, USER_PATH } from "./me";

// The end users of a space app as its builder sees them in the Database panel: the User entity's
// rows (its id, not a creatorId), with the extra fields the app's User entity declares, and their
// role. Making one an admin makes them an admin of the app's data at their next call
// (lib/app-data/actor.ts reads the role on every call). Only users of this app's tenant are ever
// read or changed: a builder, or an end user of another app, is not found.

type Row = Awaited<ReturnType<typeof listAppUsers>>[number];

const view = (r: Row): AppUserView => ({
  id: r.id,
  email: r.email,
  fullName: r.name,
  role: r.appRole,
  createdAt: r.createdAt.toISOString(),
  data: r.appData,
});

/** The User entity's own fields (top-level, but the built-in ones), from the current version. */
async function extraFields(appId: string) {
  const file = await findRuntimeApp(appId, USER_PATH);
  if (!file?.entitySchema) return [];
  const builtIn: readonly string[] = USER_BUILT_IN;
  return declaredFields(file.entitySchema).filter((f) => !f.name.includes(".") && !builtIn.includes(f.name));
}

/** GET /api/apps/{appId}/users: newest first, by a (createdAt, id) cursor. */
export async function listUsersOfApp(app: App, query: AppUsersQuery): Promise<AppUserPage> {
  assertSpaceApp(app);
  const [micros, id] = query.cursor?.split("_") ?? [];
  const after = micros && id ? { micros, id } : null;
  const [fields, rows, total] = await Promise.all([
    extraFields(app.id),
    listAppUsers(app.id, query.limit + 1, after),
    countAppUsers(app.id),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    fields,
    users: page.map(view),
    total,
    nextCursor: rows.length > query.limit && last ? `${last.micros}_${last.id}` : null,
  };
}

/** PATCH /api/apps/{appId}/users/{userId}: the builder makes an end user an admin of the app, or back. */
export async function setUserRole(app: App, userId: string, role: AppRole): Promise<AppUserView> {
  assertSpaceApp(app);
  const row = await setAppUserRole(app.id, userId, role);
  if (!row) throw new AppError("NOT_FOUND", "appUserNotFound", "USER_NOT_FOUND");
  return view(row);
}
