import { desc, eq } from "drizzle-orm";
import { db, type Executor } from "../client";
import { emailOutbox } from "../schema";

export async function insertOutboxMail(
  mail: { to: string; subject: string; text: string; html: string },
  ex: Executor = db(),
): Promise<void> {
  await ex.insert(emailOutbox).values(mail);
}

export async function listOutboxMails(opts: { to?: string; limit?: number } = {}, ex: Executor = db()) {
  const q = ex.select().from(emailOutbox);
  const filtered = opts.to ? q.where(eq(emailOutbox.to, opts.to)) : q;
  return filtered.orderBy(desc(emailOutbox.createdAt)).limit(opts.limit ?? 100);
}
