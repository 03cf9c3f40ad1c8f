import { changeBuilderByAdmin } from "@/lib/accounts/admin-builders";
import { AdminBuilderAnswer, AdminBuilderParams, AdminBuilderPatch } from "@/lib/accounts/admin-schemas";
import { route } from "@/lib/api/route";

// PATCH /api/admin/builders/{accountId} - set a builder's plan and/or admin flag, no payment
export const PATCH = route(
  {
    auth: "admin",
    params: AdminBuilderParams,
    body: AdminBuilderPatch,
    summary: "Set a builder's plan or admin flag (administrators)",
    response: AdminBuilderAnswer,
    // 404: no builder account has that id; 400 also when an admin would demote themselves.
    errors: [404],
  },
  async ({ session, params, body }) => changeBuilderByAdmin(session, params.accountId, body),
);
