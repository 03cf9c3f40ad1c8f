import { listBuildersForAdmin } from "@/lib/accounts/admin-builders";
import { AdminBuildersAnswer, AdminBuildersQuery } from "@/lib/accounts/admin-schemas";
import { route } from "@/lib/api/route";

// GET /api/admin/builders?q= - builder accounts (email, plan, admin flag), for administrators
export const GET = route(
  {
    auth: "admin",
    query: AdminBuildersQuery,
    summary: "List builder accounts (administrators)",
    response: AdminBuildersAnswer,
  },
  async ({ query }) => listBuildersForAdmin(query.q),
);
