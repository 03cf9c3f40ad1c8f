import { route } from "@/lib/api/route";
import { sendMagicCode } from "@/lib/auth/magic-code";
import { AppIdQuery, SendMagicLinkBody, SentAnswer } from "@/lib/auth/schemas";

// POST /api/live_api/account/sendMagicLink?appId= - mail a 6-digit code and a sign-in link
export const POST = route(
  {
    auth: "public",
    query: AppIdQuery,
    body: SendMagicLinkBody,
    response: SentAnswer,
    // 404: no published app of appId; 429: too many mails to the address or from the caller
    errors: [404, 429],
  },
  ({ query, body, ip }) => sendMagicCode(query.appId, body, ip),
);
