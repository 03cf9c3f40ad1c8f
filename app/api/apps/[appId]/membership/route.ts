import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { loadMembershipState, membershipApp } from "@/lib/payments/membership";
import { MembershipState } from "@/lib/payments/schemas";

// GET /api/apps/{appId}/membership - whether the app asks for a membership and the caller has one
export const GET = route(
  {
    auth: "public",
    params: AppIdParams,
    summary: "The caller's membership of a published app",
    response: MembershipState,
    // 404: no published app of that id.
    errors: [404],
  },
  async ({ session, params }) => loadMembershipState(await membershipApp(params.appId), session),
);
