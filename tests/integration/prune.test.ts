import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { pruneExpired } from "@/lib/jobs/prune";
import { createBuilder, tokenFor } from "../support/factories";

// Codes, attempt counters and sessions are short-lived rows: the prune job (every 10 minutes)
// deletes them once they are of no use, so these tables stay small however long the server runs.

const count = async (query: ReturnType<typeof sql>) =>
  Number((await db().execute<{ n: number }>(query)).rows[0]!.n);

describe("pruneExpired", () => {
  it("deletes expired and long-used codes, ended counters and dead sessions; keeps the live ones", async () => {
    const builder = await createBuilder();
    const mark = `prune-${Date.now()}`;
    await db().execute(sql`
      INSERT INTO auth_codes (purpose, email, token_hash, expires_at, used_at) VALUES
        ('reset_password', ${`${mark}@x.com`}, ${`${mark}-expired`}, now() - interval '1 minute', NULL),
        ('reset_password', ${`${mark}@x.com`}, ${`${mark}-used-long-ago`}, now() + interval '1 hour', now() - interval '2 days'),
        ('reset_password', ${`${mark}@x.com`}, ${`${mark}-used-just-now`}, now() + interval '1 hour', now()),
        ('reset_password', ${`${mark}@x.com`}, ${`${mark}-live`}, now() + interval '1 hour', NULL)`);
    await db().execute(sql`
      INSERT INTO rate_limits (key, points, expire) VALUES
        (${`${mark}:ended`}, 3, ${Date.now() - 1000}),
        (${`${mark}:running`}, 3, ${Date.now() + 60_000})`);
    await tokenFor(builder.user);
    const liveSessions = await count(
      sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${builder.user.id}`,
    );
    await db().execute(sql`
      INSERT INTO sessions (user_id, expires_at, revoked_at, last_seen_at) VALUES
        (${builder.user.id}, now() - interval '8 days', NULL, now() - interval '8 days'),
        (${builder.user.id}, now() + interval '20 days', now() - interval '8 days', now() - interval '8 days')`);

    const pruned = await pruneExpired();
    expect(pruned.authCodes).toBeGreaterThanOrEqual(2);
    expect(pruned.rateLimits).toBeGreaterThanOrEqual(1);
    expect(pruned.sessions).toBeGreaterThanOrEqual(2);

    const codes = await db().execute<{ token_hash: string }>(
      sql`SELECT token_hash FROM auth_codes WHERE email = ${`${mark}@x.com`} ORDER BY token_hash`,
    );
    expect(codes.rows.map((r) => r.token_hash)).toEqual([`${mark}-live`, `${mark}-used-just-now`]);
    expect(await count(sql`SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE ${`${mark}:%`}`)).toBe(
      1,
    );
    expect(
      await count(sql`SELECT count(*)::int AS n FROM rate_limits WHERE key = ${`${mark}:running`}`),
    ).toBe(1);
    // The user's live sessions remain.
    expect(await count(sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${builder.user.id}`)).toBe(
      liveSessions,
    );
  });
});
