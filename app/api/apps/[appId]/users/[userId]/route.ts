import { route } from "@/lib/api/route";
import { AppUserAnswer, AppUserParams, AppUserRoleBody } from "@/lib/app-data/app-user-schemas";
import { setUserRole } from "@/lib/app-data/app-users";

// PATCH /api/apps/{appId}/users/{userId} - makes an end user of the space app an admin of it, or a user again
export const PATCH = route(
  {
    auth: "builder",
    params: AppUserParams,
    body: AppUserRoleBody,
    app: "edit",
    summary:
      "Sets an end user's role in a space app: admin (reads and writes what the app's admins may) or user",
    response: AppUserAnswer,
  },
  ({ app, params, body }) => setUserRole(app, params.userId, body.role),
);
