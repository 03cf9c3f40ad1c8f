import { route } from "@/lib/api/route";
import { listPlanCards } from "@/lib/billing/plan-cards";
import { PaidPlansAnswer, PaidPlansQuery } from "@/lib/plans/schemas";

// GET /api/app/paidPlans?appId= - the plan cards of the upgrade dialog, in tier order, each
// saying whether checkout is available (and if not, the variable to set)
export const GET = route(
  { auth: "builder", query: PaidPlansQuery, response: PaidPlansAnswer },
  async ({ query }) => listPlanCards({ appId: query.appId }),
);
