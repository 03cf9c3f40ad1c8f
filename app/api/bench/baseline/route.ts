import type { NextRequest } from "next/server";
import { pool } from "@/db/client";
import { messages } from "@/lib/messages";

// Why this exists: `npm run bench` reports what our route wrapper (session decode, the
// session query through drizzle, authorization, error mapping) costs, as a ratio to a bare
// handler that runs the same single-row query in the same run. This is that bare
// handler, so it deliberately bypasses `route()`. It answers 404 unless the server was started
// with BENCH_ROUTES=1, so it is inert in normal use.

// The same SELECT as findSession (db/queries/sessions.ts), written by hand.
const SESSION_USER_SQL = `SELECT s.id, s.last_seen_at, s.expires_at, s.revoked_at,
  u.id, u.tenant_id, u.email, u.email_verified_at, u.disabled_at, a.account_id, a.account_type, a.plan, a.subscription_id,
  a.plan_subscription_status, a.plan_subscription_cancelled_at, a.app_id, p.header,
  a.has_business_info, a.has_paid_app_package, a.is_admin
FROM sessions s
JOIN users u ON u.id = s.user_id
LEFT JOIN accounts a ON a.user_id = u.id
LEFT JOIN apps p ON p.id = a.app_id
WHERE s.id = $1`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () =>
  Response.json({ error: { code: "NOT_FOUND", message: messages.notFound } }, { status: 404 });

// GET /api/bench/baseline?id= - benchmark baseline: one session row, bare; 404 unless BENCH_ROUTES=1
export async function GET(req: NextRequest): Promise<Response> {
  if (process.env.BENCH_ROUTES !== "1") return notFound();
  const id = req.nextUrl.searchParams.get("id");
  if (!id || !UUID.test(id)) return notFound();
  const { rows } = await pool().query(SESSION_USER_SQL, [id]);
  return rows[0] ? Response.json(rows[0]) : notFound();
}
