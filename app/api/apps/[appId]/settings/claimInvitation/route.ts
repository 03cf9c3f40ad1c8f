import { route } from "@/lib/api/route";
import { getClaimInvitation } from "@/lib/apps/claim";
import { AppIdParams, ClaimInvitationAnswer } from "@/lib/apps/schemas";

// GET /api/apps/{appId}/settings/claimInvitation - inviteLink and claimCode (admins; published, claimable apps)
export const GET = route(
  {
    auth: "admin",
    params: AppIdParams,
    app: "edit",
    summary: "Get the claim invitation of an app",
    response: ClaimInvitationAnswer,
  },
  ({ session, app }) => getClaimInvitation(session, app),
);
