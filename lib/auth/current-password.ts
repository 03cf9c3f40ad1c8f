import "server-only";
import { findUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { reserveLoginAttempt } from "@/lib/security/rate-limit";
import { verifyPassword } from "./password";

/**
 * The signed-in user, once their current password is checked: a settings change (email,
 * password) needs it, and wrong guesses are limited exactly like failed logins.
 */
export async function userWithCurrentPassword(
  userId: string,
  currentPassword: string,
  ip: string,
): Promise<User> {
  const user = await findUserById(userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "unauthenticated");
  const attempt = await reserveLoginAttempt(user.tenantId, user.email, ip);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AppError("BAD_REQUEST", "currentPasswordWrong", "auth/wrong-password");
  }
  await attempt.succeeded();
  return user;
}
