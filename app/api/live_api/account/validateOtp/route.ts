import { route } from "@/lib/api/route";
import { validateOtp } from "@/lib/auth/magic-code";
import { AppIdQuery, CustomTokenAnswer, ValidateOtpBody } from "@/lib/auth/schemas";

// POST /api/live_api/account/validateOtp?appId= - { customToken, tenantId }; 429 ATTEMPTS_EXCEEDED after 5 wrong codes
export const POST = route(
  {
    auth: "public",
    query: AppIdQuery,
    body: ValidateOtpBody,
    response: CustomTokenAnswer,
    // 403: the user is disabled; 404: no published app of appId; 429: too many wrong codes
    errors: [403, 404, 429],
  },
  ({ query, body, ip }) => validateOtp(query.appId, body, ip),
);
