import { and, eq, isNull } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type User, users } from "../schema";

const tenantIs = (tenantId: string | null) =>
  tenantId ? eq(users.tenantId, tenantId) : isNull(users.tenantId);

export async function findUserByEmail(tenantId: string | null, email: string, ex: Executor = db()) {
  const [row] = await ex
    .select()
    .from(users)
    .where(and(tenantIs(tenantId), eq(users.email, email)));
  return row;
}

export async function findUserById(id: string, ex: Executor = db()): Promise<User | undefined> {
  const [row] = await ex.select().from(users).where(eq(users.id, id));
  return row;
}

export async function insertUser(
  values: {
    tenantId: string | null;
    email: string;
    passwordHash?: string | null;
    emailVerifiedAt?: Date | null;
    googleSub?: string;
    name?: string;
  },
  ex: Executor = db(),
): Promise<User | undefined> {
  // ON CONFLICT DO NOTHING: two signups racing on one email give one user and one clear error.
  const [row] = await ex.insert(users).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateUser(
  id: string,
  values: Partial<
    Pick<User, "email" | "emailVerifiedAt" | "passwordHash" | "disabledAt" | "googleSub" | "name">
  >,
  ex: Executor = db(),
) {
  const [row] = await ex
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}
