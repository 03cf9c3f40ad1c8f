import { route } from "@/lib/api/route";
import { refreshBearerToken } from "@/lib/auth/bearer";
import { BearerTokenAnswer } from "@/lib/auth/schemas";

// POST /api/identity/token - a fresh bearer token for the signed-in user (the client calls it every 50 minutes)
export const POST = route({ auth: "user", response: BearerTokenAnswer }, ({ session }) =>
  refreshBearerToken(session),
);
