import type { User } from "@/db/schema";
import type { SessionClaims } from "./session-token";

export function claimsFor(user: User): SessionClaims {
  return {
    sub: user.id,
    tid: user.tenantId,
    sv: user.sessionVersion,
    ev: user.emailVerifiedAt !== null,
    email: user.email,
  };
}
