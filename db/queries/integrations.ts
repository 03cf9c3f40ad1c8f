import { and, eq, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { type IntegrationConnection, type IntegrationProvider, integrationConnections } from "../schema";

// A builder's connections to Notion and Google Drive. The token columns hold what
// lib/integrations sealed (encrypted); nothing here reads or writes a token in clear.

export async function findConnection(
  accountId: string,
  provider: IntegrationProvider,
  ex: Executor = db(),
): Promise<IntegrationConnection | undefined> {
  const [row] = await ex
    .select()
    .from(integrationConnections)
    .where(
      and(eq(integrationConnections.accountId, accountId), eq(integrationConnections.provider, provider)),
    );
  return row;
}

/** The providers an account has connected. */
export async function listConnectedProviders(accountId: string, ex: Executor = db()) {
  return ex
    .select({
      provider: integrationConnections.provider,
      externalAccountName: integrationConnections.externalAccountName,
    })
    .from(integrationConnections)
    .where(eq(integrationConnections.accountId, accountId));
}

type ConnectionValues = Pick<
  IntegrationConnection,
  "accountId" | "provider" | "accessToken" | "refreshToken" | "expiresAt" | "externalAccountName"
>;

/** Connecting again replaces the account's earlier connection to that provider. */
export async function upsertConnection(values: ConnectionValues, ex: Executor = db()) {
  const [row] = await ex
    .insert(integrationConnections)
    .values(values)
    .onConflictDoUpdate({
      target: [integrationConnections.accountId, integrationConnections.provider],
      set: {
        accessToken: values.accessToken,
        refreshToken: values.refreshToken,
        expiresAt: values.expiresAt,
        externalAccountName: values.externalAccountName,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/** New tokens after a refresh; a provider that sends no new refresh token keeps the old one. */
export async function updateConnectionTokens(
  id: string,
  tokens: { accessToken: string; refreshToken?: string | null; expiresAt: Date | null },
  ex: Executor = db(),
) {
  await ex
    .update(integrationConnections)
    .set({
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      expiresAt: tokens.expiresAt,
      updatedAt: sql`now()`,
    })
    .where(eq(integrationConnections.id, id));
}

export async function deleteConnection(
  accountId: string,
  provider: IntegrationProvider,
  ex: Executor = db(),
) {
  const rows = await ex
    .delete(integrationConnections)
    .where(
      and(eq(integrationConnections.accountId, accountId), eq(integrationConnections.provider, provider)),
    )
    .returning({ id: integrationConnections.id });
  return rows.length > 0;
}

/**
 * Runs `fn` with the connection locked until it returns, read afresh under the lock: two jobs
 * that find the same expired token refresh it once, and the second uses the first one's result
 * (a provider that rotates refresh tokens would refuse the second refresh otherwise).
 */
export async function withLockedConnection<T>(
  id: string,
  fn: (row: IntegrationConnection | undefined, ex: Executor) => Promise<T>,
): Promise<T> {
  return db().transaction(async (tx) => {
    await lockUntilCommit(`integration:${id}`, tx);
    const [row] = await tx.select().from(integrationConnections).where(eq(integrationConnections.id, id));
    return fn(row, tx);
  });
}
