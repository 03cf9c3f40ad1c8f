import "server-only";
import { consumeAuthCodeByToken, insertAuthCode } from "@/db/queries/auth-codes";
import { findUserById } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { CUSTOM_TOKEN_TTL_S } from "@/lib/constants";
import { hashSecret, randomToken } from "@/lib/security/codes-crypto";

// A custom token is a single-use ticket, exchanged for a session by the "token" sign-in
// provider: how a validated one-time code or magic link becomes a signed-in browser.
export async function createCustomToken(user: User): Promise<string> {
  const token = randomToken();
  await insertAuthCode({
    purpose: "custom_token",
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    tokenHash: hashSecret(token),
    expiresAt: new Date(Date.now() + CUSTOM_TOKEN_TTL_S * 1000),
  });
  return token;
}

/** The user a custom token signs in, once; null for a used, expired or unknown token. */
export async function redeemCustomToken(token: string): Promise<User | null> {
  const code = await consumeAuthCodeByToken("custom_token", hashSecret(token));
  const user = code?.userId ? await findUserById(code.userId) : undefined;
  if (!user || user.disabledAt) return null;
  return user;
}
