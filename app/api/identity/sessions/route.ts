import { route } from "@/lib/api/route";
import { listSessions, signOutEverywhere } from "@/lib/auth/sessions";

// GET /api/identity/sessions - the signed-in user's live sessions (devices), the current one marked
export const GET = route({ auth: "user" }, ({ session }) => listSessions(session));

// DELETE /api/identity/sessions - sign out everywhere: every session of the user ends, this one included
export const DELETE = route({ auth: "user" }, ({ session }) => signOutEverywhere(session));
