import { route } from "@/lib/api/route";
import { sendMagicCode } from "@/lib/auth/magic-code";
import { AppIdQuery, SendMagicLinkBody } from "@/lib/auth/schemas";

// POST /api/live_api/account/sendMagicLink?appId= - mail a 6-digit code and a sign-in link
export const POST = route(
  { auth: "public", query: AppIdQuery, body: SendMagicLinkBody },
  ({ query, body, ip }) => sendMagicCode(query.appId, body, ip),
);
