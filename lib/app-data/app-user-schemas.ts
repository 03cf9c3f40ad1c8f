import { z } from "zod";
import { ENTITY_RECORDS_PAGE, ENTITY_RECORDS_PAGE_MAX } from "@/lib/constants";
import { EntityField } from "@/lib/space/schemas";

// Requests and answers of the builder's routes over a space app's end users (the Database
// panel's Users view), shared by the routes, the service, the panel and the tests.

export const APP_ROLES = ["user", "admin"] as const;
export type AppRole = (typeof APP_ROLES)[number];

export const AppUserParams = z.object({ appId: z.uuid(), userId: z.uuid() });

/** GET /api/apps/{appId}/users?limit=&cursor= (the cursor the page before answered). */
export const AppUsersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(ENTITY_RECORDS_PAGE_MAX).default(ENTITY_RECORDS_PAGE),
  cursor: z
    .string()
    .regex(/^\d{1,18}_[0-9a-f-]{36}$/)
    .optional(),
});
export type AppUsersQuery = z.infer<typeof AppUsersQuery>;

/** PATCH /api/apps/{appId}/users/{userId}: an end user's role in the app. */
export const AppUserRoleBody = z.object({ role: z.enum(APP_ROLES) }).meta({ examples: [{ role: "admin" }] });

/** An end user as the panel shows them: the User entity's built-in fields, then the app's own. */
export const AppUserAnswer = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.string().nullable(),
  role: z.enum(APP_ROLES),
  createdAt: z.iso.datetime(),
  data: z
    .record(z.string(), z.unknown())
    .describe(
      "Free-form JSON: the extra fields the app's User entity declares, as the end user's code wrote them",
    ),
});
export type AppUserView = z.infer<typeof AppUserAnswer>;

/** GET /api/apps/{appId}/users: a page of end users, newest first, their count, the next page's cursor. */
export const AppUserPageAnswer = z.object({
  /** The extra fields of the app's User entity (entities/User.json of its current version), if any. */
  fields: z.array(EntityField),
  users: z.array(AppUserAnswer),
  total: z.number().int().min(0),
  nextCursor: AppUsersQuery.shape.cursor.unwrap().nullable(),
});
export type AppUserPage = z.infer<typeof AppUserPageAnswer>;
