import "server-only";
import {
  type BuilderAccountRow,
  findBuilderAccount,
  listBuilderAccounts,
  updateBuilderAccount,
} from "@/db/queries/admin-builders";
import type { Session } from "@/lib/auth/session";
import { normalizeEmail } from "@/lib/email/address";
import { AppError } from "@/lib/errors";
import type { PlanId } from "@/lib/plans/catalogue";
import {
  ADMIN_BUILDERS_PAGE,
  type AdminBuilderAnswer,
  type AdminBuilderPatch,
  type AdminBuildersAnswer,
} from "./admin-schemas";

// An operator sets a builder's plan and admin flag without any payment: a self-hosted server
// without Stripe has no other way off the free plan. Used by the admin page (through
// /api/admin/builders, admins only) and by `npm run admin` (whoever can reach the database).
// A plan set here stays until changed again here or by a subscription's webhook.

// The plan column only ever holds a plan of the catalogue (set by a subscription or an admin).
const view = (row: BuilderAccountRow): AdminBuilderAnswer => ({
  ...row,
  plan: row.plan as PlanId,
  createdAt: row.createdAt.toISOString(),
});

/** GET /api/admin/builders: builders whose email contains `search`, by email. */
export async function listBuildersForAdmin(search: string): Promise<AdminBuildersAnswer> {
  const rows = await listBuilderAccounts(search.toLowerCase(), ADMIN_BUILDERS_PAGE + 1);
  return { builders: rows.slice(0, ADMIN_BUILDERS_PAGE).map(view), more: rows.length > ADMIN_BUILDERS_PAGE };
}

/** PATCH /api/admin/builders/{accountId}. An admin cannot take away their own rights (no lock-out). */
export async function changeBuilderByAdmin(
  session: Session,
  accountId: string,
  patch: AdminBuilderPatch,
): Promise<AdminBuilderAnswer> {
  const target = await findBuilderAccount({ accountId });
  if (!target) throw new AppError("NOT_FOUND", "notFound");
  if (patch.isAdmin === false && target.accountId === session.account?.accountId) {
    throw new AppError("BAD_REQUEST", "adminCannotDemoteSelf", "CANNOT_DEMOTE_SELF");
  }
  return applyChange(target, patch);
}

/** `npm run admin -- set-plan <email> <plan>` and `set-admin <email> true|false`. */
export async function changeBuilderByEmail(
  email: string,
  patch: AdminBuilderPatch,
): Promise<AdminBuilderAnswer> {
  const target = await findBuilderAccount({ email: normalizeEmail(email) });
  if (!target) throw new AppError("NOT_FOUND", "adminBuilderNotFound");
  return applyChange(target, patch);
}

async function applyChange(target: BuilderAccountRow, patch: AdminBuilderPatch): Promise<AdminBuilderAnswer> {
  await updateBuilderAccount(target.accountId, patch);
  return view({ ...target, ...patch });
}
