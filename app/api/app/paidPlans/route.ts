import { route } from "@/lib/api/route";
import { listPlanCards } from "@/lib/plans/plan-cards";
import { PaidPlansQuery } from "@/lib/plans/schemas";

// GET /api/app/paidPlans?appId= - the plan cards of the upgrade dialog, in tier order
export const GET = route({ auth: "builder", query: PaidPlansQuery }, async ({ query }) =>
  listPlanCards(query.appId),
);
