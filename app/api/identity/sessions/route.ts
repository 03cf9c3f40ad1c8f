import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { SessionsAnswer } from "@/lib/auth/schemas";
import { listSessions, signOutEverywhere } from "@/lib/auth/sessions";

// GET /api/identity/sessions - the signed-in user's live sessions (devices), the current one marked
export const GET = route({ auth: "user", response: SessionsAnswer }, ({ session }) => listSessions(session));

// DELETE /api/identity/sessions - sign out everywhere: every session of the user ends, this one included
export const DELETE = route({ auth: "user", response: OkAnswer }, ({ session }) =>
  signOutEverywhere(session),
);
