import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { membershipApp, verifyMembership } from "@/lib/payments/membership";
import { MembershipState } from "@/lib/payments/schemas";

// POST /api/apps/{appId}/membership/verify - "I've bought it": find the end user's purchase on Gumroad
export const POST = route(
  {
    auth: "user",
    params: AppIdParams,
    summary: "Verify the signed-in end user's purchase on Gumroad",
    response: MembershipState,
    // 402: no purchase found, or the membership ended (with the `product` to buy); 404: no
    // published app; 429: verified too often; 502: Gumroad could not be reached.
    errors: [402, 404, 429, 502],
  },
  async ({ session, params }) => verifyMembership(await membershipApp(params.appId), session),
);
