import { and, asc, eq, sql } from "drizzle-orm";
import { db, type Executor } from "../client";
import { type AppFunction, appFunctions } from "../schema";

// A space app's deployed functions (lib/functions/deploy.ts): the code each instance runs and
// each function's deploy state.

export async function listAppFunctions(appId: string, ex: Executor = db()): Promise<AppFunction[]> {
  return ex.select().from(appFunctions).where(eq(appFunctions.appId, appId)).orderBy(asc(appFunctions.name));
}

export async function findAppFunction(
  appId: string,
  name: string,
  ex: Executor = db(),
): Promise<AppFunction | undefined> {
  const [row] = await ex
    .select()
    .from(appFunctions)
    .where(and(eq(appFunctions.appId, appId), eq(appFunctions.name, name)));
  return row;
}

/** A deploy starts: the state says so; the code last deployed keeps serving until it succeeds. */
export async function markFunctionDeploying(
  appId: string,
  name: string,
  fileName: string,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .insert(appFunctions)
    .values({ appId, name, fileName, state: "deploying" })
    .onConflictDoUpdate({
      target: [appFunctions.appId, appFunctions.name],
      set: { state: "deploying", error: null, updatedAt: new Date() },
    });
}

/** A deploy succeeded: its code is what every instance runs from now on. */
export async function saveFunctionDeployed(
  values: {
    appId: string;
    name: string;
    fileName: string;
    code: string;
    codeHash: string;
    deployedBy: string;
  },
  ex: Executor = db(),
): Promise<AppFunction> {
  const now = new Date();
  const row = { ...values, state: "success" as const, error: null, deployedAt: now, updatedAt: now };
  const [saved] = await ex
    .insert(appFunctions)
    .values(row)
    .onConflictDoUpdate({ target: [appFunctions.appId, appFunctions.name], set: row })
    .returning();
  return saved!;
}

/** A deploy failed: the state and the reason; the code last deployed (if any) is kept. */
export async function saveFunctionFailed(
  appId: string,
  name: string,
  fileName: string,
  error: string,
  ex: Executor = db(),
): Promise<void> {
  await ex
    .insert(appFunctions)
    .values({ appId, name, fileName, state: "error", error })
    .onConflictDoUpdate({
      target: [appFunctions.appId, appFunctions.name],
      set: { state: "error", error, updatedAt: sql`now()` },
    });
}
