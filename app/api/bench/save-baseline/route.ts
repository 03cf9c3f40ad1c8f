import type { NextRequest } from "next/server";
import { pool } from "@/db/client";
import { messages } from "@/lib/messages";

// Why this exists: `npm run bench` reports what an app save through our stack costs (route():
// session, authorization, the app's access check, zod, the field rules, the revision check) as a
// ratio to a bare handler doing the same database write in the same run. This is
// that bare handler, so it deliberately bypasses `route()` and lib/apps. It answers 404 unless
// the server was started with BENCH_ROUTES=1, so it is inert in normal use.

// The same write as updateAppContentAt (db/queries/apps.ts): one row, only while it is still at
// the revision the save was based on, the revision moved on, the row returned. The partial
// content is merged by PostgreSQL here instead of by zod in JavaScript.
const SAVE_AT_REVISION_SQL = `UPDATE apps
SET content = content || $3::jsonb,
  header = COALESCE($3::jsonb ->> 'header', header),
  revision = revision + 1,
  updated_at = now()
WHERE id = $1 AND revision = $2
RETURNING id, type, status, revision, content, updated_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const answer = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

// PATCH /api/bench/save-baseline?id= - benchmark baseline: { baseRevision, app } written to one app row, bare; 404 unless BENCH_ROUTES=1
export async function PATCH(req: NextRequest): Promise<Response> {
  if (process.env.BENCH_ROUTES !== "1") return answer(404, "NOT_FOUND", messages.notFound);
  const id = req.nextUrl.searchParams.get("id");
  if (!id || !UUID.test(id)) return answer(404, "NOT_FOUND", messages.notFound);
  const body = (await req.json()) as { baseRevision?: unknown; app?: unknown };
  if (!Number.isInteger(body.baseRevision) || typeof body.app !== "object" || body.app === null) {
    return answer(400, "INVALID_INPUT", messages.invalidInput);
  }
  const { rows } = await pool().query(SAVE_AT_REVISION_SQL, [
    id,
    body.baseRevision,
    JSON.stringify(body.app),
  ]);
  const row = rows[0];
  if (!row) return answer(409, "REVISION_CONFLICT", messages.saveConflict);
  return Response.json({
    appId: row.id,
    appType: row.type,
    status: row.status,
    revision: row.revision,
    app: row.content,
    updatedAt: row.updated_at,
  });
}
