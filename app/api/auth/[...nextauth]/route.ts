// GET|POST /api/auth/* - Auth.js: sign-in providers (password, custom token, Google), session, sign-out.
import { withCappedBody } from "@/lib/api/capped-handler";
import { withHeaders } from "@/lib/api/route";
import { handlers } from "@/lib/auth/next-auth";

export const GET = async (req: Parameters<typeof handlers.GET>[0]) => withHeaders(await handlers.GET(req));
// Auth.js reads form posts whole: its body is capped before it gets it.
export const POST = withCappedBody(handlers.POST, "authForm");
