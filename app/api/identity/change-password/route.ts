import { route } from "@/lib/api/route";
import { changePassword } from "@/lib/auth/change-password";
import { ChangePasswordBody } from "@/lib/auth/schemas";

// POST /api/identity/change-password - the current password proves it's you; every other session ends
export const POST = route({ auth: "user", body: ChangePasswordBody }, ({ session, body, ip }) =>
  changePassword(session, body, ip),
);
