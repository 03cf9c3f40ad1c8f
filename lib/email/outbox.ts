import "server-only";
import { listOutboxMails } from "@/db/queries/outbox";
import { normalizeEmail } from "@/lib/email/address";
import { isProduction } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** The dev outbox: readable outside production only. */
export async function listOutbox(to?: string, limit?: number) {
  if (isProduction()) throw new AppError("NOT_FOUND", "notFound");
  const mails = await listOutboxMails({ to: to ? normalizeEmail(to) : undefined, limit });
  return { mails };
}
