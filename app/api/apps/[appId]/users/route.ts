import { route } from "@/lib/api/route";
import { AppUserPageAnswer, AppUsersQuery } from "@/lib/app-data/app-user-schemas";
import { listUsersOfApp } from "@/lib/app-data/app-users";
import { AppIdParams } from "@/lib/apps/schemas";

// GET /api/apps/{appId}/users?limit=&cursor= - a page of the space app's end users, newest first
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: AppUsersQuery,
    app: "edit",
    summary:
      "A page of a space app's end users, newest first, with their role, the User entity's extra fields, their count and the next page's cursor",
    response: AppUserPageAnswer,
  },
  ({ app, query }) => listUsersOfApp(app, query),
);
