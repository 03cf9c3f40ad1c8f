import { eq } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type Account, accounts, checkoutSales } from "../schema";

/** Creates the account once; later calls return the existing one (idempotent). */
export async function insertAccountIfMissing(
  values: { userId: string; accountType: "builder" | "other"; appId: string | null; plan?: string },
  ex: Executor = db(),
): Promise<Account> {
  const [created] = await ex.insert(accounts).values(values).onConflictDoNothing().returning();
  if (created) return created;
  const [existing] = await ex.select().from(accounts).where(eq(accounts.userId, values.userId));
  return existing!;
}

export async function findCheckoutSale(saleId: string, ex: Executor = db()) {
  const [row] = await ex.select().from(checkoutSales).where(eq(checkoutSales.saleId, saleId));
  return row;
}

export async function findAccountById(accountId: string, ex: Executor = db()): Promise<Account | undefined> {
  const [row] = await ex.select().from(accounts).where(eq(accounts.accountId, accountId));
  return row;
}
