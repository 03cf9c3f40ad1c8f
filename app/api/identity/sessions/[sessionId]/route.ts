import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { SessionIdParams } from "@/lib/auth/schemas";
import { revokeOwnSession } from "@/lib/auth/sessions";

// DELETE /api/identity/sessions/{sessionId} - end one of the signed-in user's sessions (404 if not theirs)
export const DELETE = route(
  { auth: "user", params: SessionIdParams, response: OkAnswer, errors: [404] },
  ({ session, params }) => revokeOwnSession(session, params.sessionId),
);
