import { route } from "@/lib/api/route";
import { validateOtp } from "@/lib/auth/magic-code";
import { AppIdQuery, ValidateOtpBody } from "@/lib/auth/schemas";

// POST /api/live_api/account/validateOtp?appId= - { customToken, tenantId }; 429 ATTEMPTS_EXCEEDED after 5 wrong codes
export const POST = route(
  { auth: "public", query: AppIdQuery, body: ValidateOtpBody },
  ({ query, body, ip }) => validateOtp(query.appId, body, ip),
);
