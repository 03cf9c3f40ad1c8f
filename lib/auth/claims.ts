import type { User } from "@/db/schema";
import type { SessionClaims } from "./session-token";

/** The claims of a session token for `user`, bound to the server-side session `sid`. */
export function claimsFor(user: User, sid: string): SessionClaims {
  return {
    sub: user.id,
    tid: user.tenantId,
    sid,
    ev: user.emailVerifiedAt !== null,
    email: user.email,
  };
}
