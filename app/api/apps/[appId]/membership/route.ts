import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { loadMembershipState, membershipApp } from "@/lib/payments/membership";

// GET /api/apps/{appId}/membership - whether the app asks for a membership and the caller has one
export const GET = route(
  { auth: "public", params: AppIdParams, summary: "The caller's membership of a published app" },
  async ({ session, params }) => loadMembershipState(await membershipApp(params.appId), session),
);
