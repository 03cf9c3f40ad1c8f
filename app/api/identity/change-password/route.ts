import { OkAnswer } from "@/lib/api/answers";
import { route } from "@/lib/api/route";
import { changePassword } from "@/lib/auth/change-password";
import { ChangePasswordBody } from "@/lib/auth/schemas";

// POST /api/identity/change-password - the current password proves it's you; every other session ends
export const POST = route(
  // 429: too many wrong current passwords (limited like failed logins)
  { auth: "user", body: ChangePasswordBody, response: OkAnswer, errors: [429] },
  ({ session, body, ip }) => changePassword(session, body, ip),
);
