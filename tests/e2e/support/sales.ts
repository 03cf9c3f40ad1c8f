import crypto from "node:crypto";
import { sql } from "./db";

// Checkout sales written straight into the database, for the account-creation-after-payment
// path: the browser comes back with ?sale_id= and the payment webhook, not the
// browser, creates the account once the sale is paid.

/** A sale id that no sale row will ever carry. */
export const unknownSaleId = () => `cs_unknown_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;

/** A pending checkout sale bought by this user. */
export async function createPendingSale(userId: string, plan = "explorer"): Promise<string> {
  const saleId = `cs_e2e_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await sql(
    `INSERT INTO checkout_sales (sale_id, user_id, plan, interval, status)
     VALUES ($1, $2, $3, 'monthly', 'pending')`,
    [saleId, userId, plan],
  );
  return saleId;
}

/**
 * What the checkout.session.completed webhook does for a buyer without an account: the sale
 * becomes paid and the builder account exists, on the bought plan, in one transaction.
 */
export async function settleSaleAsWebhook(saleId: string): Promise<{ accountId: string }> {
  const [row] = await sql<{ account_id: string }>(
    `WITH sale AS (
       UPDATE checkout_sales SET status = 'paid', paid_at = now()
       WHERE sale_id = $1 RETURNING user_id, plan
     )
     INSERT INTO accounts (user_id, account_type, plan)
     SELECT user_id, 'builder', plan FROM sale
     ON CONFLICT (user_id) DO UPDATE SET plan = excluded.plan
     RETURNING account_id`,
    [saleId],
  );
  if (!row) throw new Error(`No checkout sale ${saleId} to settle`);
  return { accountId: row.account_id };
}

export async function accountsOf(userId: string) {
  return sql<{ account_id: string; plan: string; account_type: string }>(
    "SELECT account_id, plan, account_type FROM accounts WHERE user_id = $1",
    [userId],
  );
}
