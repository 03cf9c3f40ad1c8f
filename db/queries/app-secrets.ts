import { and, asc, count, eq, notInArray, sql } from "drizzle-orm";
import { db, type Executor, lockUntilCommit } from "../client";
import { type AppSecret, appSecrets } from "../schema";

// A space app's secrets (lib/secrets). Values come and go sealed: nothing here sees one in clear.

/** What an answer may show of a secret: everything but the sealed value. */
export type SecretListing = Pick<AppSecret, "key" | "instructions" | "createdAt" | "updatedAt">;

const listing = {
  key: appSecrets.key,
  instructions: appSecrets.instructions,
  createdAt: appSecrets.createdAt,
  updatedAt: appSecrets.updatedAt,
};

export async function listAppSecrets(appId: string, ex: Executor = db()): Promise<SecretListing[]> {
  return ex.select(listing).from(appSecrets).where(eq(appSecrets.appId, appId)).orderBy(asc(appSecrets.key));
}

/** The sealed rows, for the server's own use of the values (an app's functions). */
export async function readSealedSecrets(appId: string, ex: Executor = db()): Promise<AppSecret[]> {
  return ex.select().from(appSecrets).where(eq(appSecrets.appId, appId)).orderBy(asc(appSecrets.key));
}

export type SealedSecretInput = {
  key: string;
  sealedValue: string;
  keyId: string;
  /** undefined: an existing secret keeps its instructions. */
  instructions: string | null | undefined;
};

/**
 * Saves secrets (a key already there gets the new value), unless the app would then hold more
 * than `max`: "too_many" and nothing is written. The app's lock makes two saves count in turn.
 */
export async function saveAppSecrets(
  appId: string,
  secrets: readonly SealedSecretInput[],
  max: number,
): Promise<"saved" | "too_many"> {
  return db().transaction(async (tx) => {
    await lockUntilCommit(`app-secrets:${appId}`, tx);
    const keys = secrets.map((s) => s.key);
    const [held] = await tx
      .select({ n: count() })
      .from(appSecrets)
      .where(and(eq(appSecrets.appId, appId), notInArray(appSecrets.key, keys)));
    if ((held?.n ?? 0) + keys.length > max) return "too_many";
    for (const s of secrets) {
      const instructions = s.instructions === undefined ? {} : { instructions: s.instructions };
      await tx
        .insert(appSecrets)
        .values({ appId, key: s.key, sealedValue: s.sealedValue, keyId: s.keyId, ...instructions })
        .onConflictDoUpdate({
          target: [appSecrets.appId, appSecrets.key],
          set: { sealedValue: s.sealedValue, keyId: s.keyId, ...instructions, updatedAt: sql`now()` },
        });
    }
    return "saved";
  });
}

/** Whether the secret was there. */
export async function deleteAppSecret(appId: string, key: string, ex: Executor = db()): Promise<boolean> {
  const gone = await ex
    .delete(appSecrets)
    .where(and(eq(appSecrets.appId, appId), eq(appSecrets.key, key)))
    .returning({ key: appSecrets.key });
  return gone.length > 0;
}

/** Rows sealed under another key than `keyId` (rotation), a page at a time. */
export async function listSecretsSealedUnderOtherKeys(keyId: string, limit: number, ex: Executor = db()) {
  return ex.select().from(appSecrets).where(sql`${appSecrets.keyId} <> ${keyId}`).limit(limit);
}

/** Reseals one row, if it is still as it was read (a save meanwhile wins). */
export async function resealAppSecret(
  row: Pick<AppSecret, "appId" | "key" | "sealedValue">,
  sealed: { sealedValue: string; keyId: string },
  ex: Executor = db(),
): Promise<void> {
  await ex
    .update(appSecrets)
    .set(sealed)
    .where(
      and(
        eq(appSecrets.appId, row.appId),
        eq(appSecrets.key, row.key),
        eq(appSecrets.sealedValue, row.sealedValue),
      ),
    );
}
