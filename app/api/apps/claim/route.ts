import { route } from "@/lib/api/route";
import { claimApp } from "@/lib/apps/claim";
import { ClaimBody, ClaimedAppAnswer } from "@/lib/apps/schemas";

// POST /api/apps/claim - the signed-in builder takes over the app of a claim invitation (once)
export const POST = route(
  { auth: "builder", body: ClaimBody, summary: "Claim an app by invitation", response: ClaimedAppAnswer },
  ({ session, body }) => claimApp(session, body.claimCode),
);
