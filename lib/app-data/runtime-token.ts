import "server-only";
import { findRuntimeApp, findRuntimeUser } from "@/db/queries/app-data";
import { canEditApp } from "@/lib/apps/access";
import type { Session } from "@/lib/auth/session";
import { APP_TOKEN_TTL_S } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { runtimeUserOf } from "./me";
import type { RuntimeTokenAnswer } from "./schemas";
import { signAppToken } from "./token";

// POST /api/apps/{appId}/runtime/token: the page around a space app's frame (the editor's preview,
// or the published app at /app/{appId}) asks, with its own session, for the token the app's code
// will send. The frame itself never holds our cookie. The app's builder gets one as an admin
// (drafts included); an end user signed in to this published app gets one as themself; anybody
// else gets none and the app's code runs as anonymous.

export async function issueRuntimeToken(appId: string, session: Session | null): Promise<RuntimeTokenAnswer> {
  const app = await findRuntimeApp(appId, null);
  if (app?.type !== "space") throw new AppError("NOT_FOUND", "appNotFound");
  const builder = session !== null && session.tenantId === null && canEditApp(session, app);
  if (app.status !== "active" && !builder) throw new AppError("NOT_FOUND", "appNotFound");
  const endUser = session !== null && session.tenantId === app.id;
  if (!session || (!builder && !endUser) || session.disabled)
    return { token: null, expiresAt: null, user: null };
  const row = await findRuntimeUser(session.userId);
  if (!row) return { token: null, expiresAt: null, user: null };
  const ttlS = Math.min(APP_TOKEN_TTL_S, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000));
  const { token, expiresAt } = await signAppToken(
    { appId: app.id, userId: session.userId, sessionId: session.sessionId },
    ttlS,
  );
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: runtimeUserOf(row, builder || row.appRole === "admin"),
  };
}
