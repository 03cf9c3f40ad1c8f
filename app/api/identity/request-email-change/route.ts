import { route } from "@/lib/api/route";
import { requestEmailChange } from "@/lib/auth/email-change";
import { RequestEmailChangeBody } from "@/lib/auth/schemas";

// POST /api/identity/request-email-change - current password checked, confirmation link sent to the new email
export const POST = route({ auth: "user", body: RequestEmailChangeBody }, ({ session, body, ip }) =>
  requestEmailChange(session, body, ip),
);
