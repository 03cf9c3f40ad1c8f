import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type AuthCode, type AuthCodePurpose, authCodes } from "../schema";

export async function insertAuthCode(
  values: {
    purpose: AuthCodePurpose;
    userId?: string | null;
    tenantId?: string | null;
    email: string;
    tokenHash: string;
    codeHash?: string;
    newEmail?: string;
    continueUrl?: string | null;
    expiresAt: Date;
  },
  ex: Executor = db(),
): Promise<AuthCode> {
  const [row] = await ex.insert(authCodes).values(values).returning();
  return row!;
}

/**
 * Marks a live link as used and returns it, in one statement: two clicks racing on one
 * link get one success.
 */
export async function consumeAuthCodeByToken(
  purpose: AuthCodePurpose,
  tokenHash: string,
  ex: Executor = db(),
) {
  const [row] = await ex
    .update(authCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authCodes.purpose, purpose),
        eq(authCodes.tokenHash, tokenHash),
        isNull(authCodes.usedAt),
        gt(authCodes.expiresAt, new Date()),
      ),
    )
    .returning();
  return row;
}

/** A link by its token, used or expired alike (to recognise a link opened a second time). */
export async function findAuthCodeByToken(purpose: AuthCodePurpose, tokenHash: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(authCodes)
    .where(and(eq(authCodes.purpose, purpose), eq(authCodes.tokenHash, tokenHash)));
  return row;
}

/** Reads a live link without using it (to show the reset form only for a valid link). */
export async function findLiveAuthCodeByToken(
  purpose: AuthCodePurpose,
  tokenHash: string,
  ex: Executor = db(),
) {
  const [row] = await ex
    .select()
    .from(authCodes)
    .where(
      and(
        eq(authCodes.purpose, purpose),
        eq(authCodes.tokenHash, tokenHash),
        isNull(authCodes.usedAt),
        gt(authCodes.expiresAt, new Date()),
      ),
    );
  return row;
}

/**
 * Reserves one attempt on each of the newest live magic codes of an address, in one statement:
 * only codes with attempts left take it, so however many guesses race, each code is compared at
 * most `maxAttempts` times. Answers the codes that took the attempt (with their new count).
 */
export async function reserveMagicCodeAttempt(
  tenantId: string,
  email: string,
  maxAttempts: number,
  newest: number,
  ex: Executor = db(),
) {
  const result = await ex.execute<{ id: string; code_hash: string | null; attempts: number }>(sql`
    UPDATE auth_codes SET attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM auth_codes
      WHERE purpose = 'magic_code' AND tenant_id = ${tenantId} AND email = ${email}
        AND used_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC LIMIT ${newest}
    ) AND attempts < ${maxAttempts} AND used_at IS NULL
    RETURNING id, code_hash, attempts`);
  return result.rows.map((r) => ({ id: r.id, codeHash: r.code_hash, attempts: Number(r.attempts) }));
}

/** Whether an address has a live magic code (used up by wrong guesses or not). */
export async function hasLiveMagicCode(tenantId: string, email: string, ex: Executor = db()) {
  const [row] = await ex
    .select({ id: authCodes.id })
    .from(authCodes)
    .where(
      and(
        eq(authCodes.purpose, "magic_code"),
        eq(authCodes.tenantId, tenantId),
        eq(authCodes.email, email),
        isNull(authCodes.usedAt),
        gt(authCodes.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Uses a code by id if nobody used it first. */
export async function markAuthCodeUsed(id: string, ex: Executor = db()): Promise<boolean> {
  const rows = await ex
    .update(authCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(authCodes.id, id), isNull(authCodes.usedAt)))
    .returning({ id: authCodes.id });
  return rows.length === 1;
}

/** Ends every open link of one kind for a user (e.g. older reset links after a reset). */
export async function expireAuthCodes(
  purpose: AuthCodePurpose,
  email: string,
  tenantId: string | null,
  ex: Executor = db(),
) {
  await ex
    .update(authCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authCodes.purpose, purpose),
        eq(authCodes.email, email),
        tenantId ? eq(authCodes.tenantId, tenantId) : isNull(authCodes.tenantId),
        isNull(authCodes.usedAt),
      ),
    );
}

/** Codes and links past their expiry, or used before `usedBefore`, are deleted. */
export async function deleteDeadAuthCodes(usedBefore: Date, ex: Executor = db()): Promise<number> {
  const rows = await ex
    .delete(authCodes)
    .where(sql`${authCodes.expiresAt} < now() OR ${authCodes.usedAt} < ${usedBefore}`)
    .returning({ id: authCodes.id });
  return rows.length;
}
