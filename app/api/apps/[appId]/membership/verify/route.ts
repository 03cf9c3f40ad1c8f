import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { membershipApp, verifyMembership } from "@/lib/payments/membership";

// POST /api/apps/{appId}/membership/verify - "I've bought it": find the end user's purchase on Gumroad
export const POST = route(
  { auth: "user", params: AppIdParams, summary: "Verify the signed-in end user's purchase on Gumroad" },
  async ({ session, params }) => verifyMembership(await membershipApp(params.appId), session),
);
