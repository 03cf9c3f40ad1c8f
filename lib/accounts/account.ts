import "server-only";
import { findCheckoutSale, insertAccountIfMissing } from "@/db/queries/accounts";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";

/**
 * POST /api/live_api/account/create. Idempotent. With a sale id, the account is created by
 * the payment webhook: until that sale is paid we answer 401 ("not yet ready").
 */
export async function createAccount(session: Session, saleId?: string): Promise<{ accountId: string }> {
  if (saleId) {
    const sale = await findCheckoutSale(saleId);
    if (sale?.status !== "paid" || (sale.userId && sale.userId !== session.userId)) {
      throw new AppError("UNAUTHENTICATED", "notYetReady", "NOT_YET_READY");
    }
  }
  if (session.account) return { accountId: session.account.accountId };
  const account = await insertAccountIfMissing({
    userId: session.userId,
    accountType: session.tenantId ? "other" : "builder",
    appId: session.tenantId,
  });
  return { accountId: account.accountId };
}

/** GET /api/live_api/account/current: the account fields of the spec, plus the sign-in email. */
export function currentAccount(session: Session) {
  if (!session.account) throw new AppError("NOT_FOUND", "notFound", "ACCOUNT_NOT_FOUND");
  return { ...session.account, email: session.email, emailVerified: session.emailVerified };
}
