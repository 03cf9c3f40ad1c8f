import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
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

/** The newest unused, unexpired magic code of an address in an app. */
export async function findLatestMagicCode(tenantId: string, email: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
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
    .orderBy(desc(authCodes.createdAt))
    .limit(1);
  return row;
}

/** Counts a wrong guess atomically; returns the new count. */
export async function incrementAuthCodeAttempts(id: string, ex: Executor = db()): Promise<number> {
  const [row] = await ex
    .update(authCodes)
    .set({ attempts: sql`${authCodes.attempts} + 1` })
    .where(eq(authCodes.id, id))
    .returning({ attempts: authCodes.attempts });
  return row?.attempts ?? 0;
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
