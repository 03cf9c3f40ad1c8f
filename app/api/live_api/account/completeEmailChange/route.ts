import { route } from "@/lib/api/route";
import { completeEmailChange } from "@/lib/auth/email-change";
import { CompleteEmailChangeBody, EmailAnswer } from "@/lib/auth/schemas";

// POST /api/live_api/account/completeEmailChange - the emailed link completes the change (409 auth/email-already-exists)
export const POST = route(
  { auth: "public", body: CompleteEmailChangeBody, response: EmailAnswer, errors: [409] },
  ({ body }) => completeEmailChange(body),
);
