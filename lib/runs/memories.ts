import "server-only";
import { deleteMemories, listMemories, upsertMemories } from "@/db/queries/runs";
import type { CustomField } from "@/lib/apps/schemas";
import { requirePublishedApp } from "@/lib/apps/tenant";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import type { CheckedInputs } from "./inputs";
import type { MemoriesAnswer, MemoriesClearedAnswer } from "./schemas";

// Memories: what an end user answered to an app's memorize fields, kept per user
// per app and offered again on the next run. Only the app's own end users have any: a builder or
// an end user of another app is refused (403), whatever the app id they name.

async function ownUserOf(session: Session, appId: string) {
  const app = await requirePublishedApp(appId);
  if (session.tenantId !== app.id) throw new AppError("FORBIDDEN", "forbidden");
  return app;
}

/** GET /api/live_api/user/memories/current?appId= */
export async function currentMemories(session: Session, appId: string): Promise<MemoriesAnswer> {
  const app = await ownUserOf(session, appId);
  const rows = await listMemories(app.id, session.userId);
  return {
    memories: Object.fromEntries(
      rows.map((r) => [r.fieldName, r.value as MemoriesAnswer["memories"][string]]),
    ),
  };
}

/** DELETE /api/live_api/user/memories/current?appId= - the end user forgets what the app remembers. */
export async function clearMemories(session: Session, appId: string): Promise<MemoriesClearedAnswer> {
  const app = await ownUserOf(session, appId);
  return { ok: true, deleted: await deleteMemories(app.id, session.userId) };
}

/** After a successful run: the answers to the memorize fields (as the editor keeps them), when given. */
export async function rememberInputs(
  appId: string,
  userId: string,
  fields: readonly CustomField[],
  inputs: CheckedInputs,
): Promise<void> {
  const entries = fields
    .filter((f) => f.memorize && (inputs[f.name] ?? null) !== null)
    .map((f) => ({ fieldName: f.name, value: inputs[f.name] }));
  await upsertMemories(appId, userId, entries);
}
