import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import * as sendReset from "@/app/api/live_api/account/sendResetPasswordEmail/route";
import { db } from "@/db/client";
import { listOutboxMails } from "@/db/queries/outbox";
import { runDueJobs } from "@/lib/jobs/worker";
import {
  createBuilder,
  createEndUser,
  createPublishedApp,
  fromIp,
  mailsTo,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

// The answer of a reset or code request once took 160 ms for an existing address and 8 ms for
// an unknown one. Now the request path does the same work either way (validate, count, queue one
// job) and the job finds out whether to mail. Checked by structure, never by the clock.

const queued = async (email: string) => {
  const r = await db().execute<{ kind: string; n: number }>(
    sql`SELECT data->>'kind' AS kind, count(*)::int AS n FROM pgboss.job
        WHERE name = 'auth-mail' AND data->>'email' = ${email} GROUP BY 1`,
  );
  return Object.fromEntries(r.rows.map((row) => [row.kind, Number(row.n)]));
};
const codesOf = async (email: string) =>
  Number(
    (await db().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM auth_codes WHERE email = ${email}`))
      .rows[0]!.n,
  );
const outbox = (email: string) => listOutboxMails({ to: email });

describe("reset requests do the same work whether or not the address has an account", () => {
  it("same answer, one queued job each, no code and no mail until the job runs; then a mail only for the account", async () => {
    const builder = await createBuilder();
    const ghost = uniqueEmail("ghost");
    const ask = (email: string) =>
      call(sendReset.POST, {
        path: "/api/live_api/account/sendResetPasswordEmail",
        body: { email },
        headers: fromIp(),
      });

    const known = await ask(builder.user.email);
    const unknown = await ask(ghost);
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    expect(await queued(builder.user.email)).toEqual({ reset: 1 });
    expect(await queued(ghost)).toEqual({ reset: 1 });
    expect(await codesOf(builder.user.email)).toBe(0);
    expect(await outbox(builder.user.email)).toHaveLength(0);

    await runDueJobs();
    expect(await outbox(builder.user.email)).toHaveLength(1);
    expect(await codesOf(builder.user.email)).toBe(1);
    expect(await outbox(ghost)).toHaveLength(0);
    expect(await codesOf(ghost)).toBe(0);
  });
});

describe("sign-in code requests do the same work for a known and a new end user", () => {
  it("one queued job each, and the code is made by the job", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const endUser = await createEndUser(app.id);
    const stranger = uniqueEmail("new");
    for (const email of [endUser.user.email, stranger]) {
      const res = await call(sendMagic.POST, {
        path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
        body: { email },
        headers: fromIp(),
      });
      expect(res.status).toBe(200);
      expect(await queued(email)).toEqual({ "magic-code": 1 });
      expect(await codesOf(email)).toBe(0);
    }
    await runDueJobs();
    expect(await mailsTo(endUser.user.email)).toHaveLength(1);
    expect(await mailsTo(stranger)).toHaveLength(1);
  });
});

describe("a mail that cannot be sent is not lost", () => {
  it("its job fails and waits for a retry; sent once the mail transport is back", async () => {
    const builder = await createBuilder();
    await call(sendReset.POST, {
      path: "/api/live_api/account/sendResetPasswordEmail",
      body: { email: builder.user.email },
      headers: fromIp(),
    });
    // The outbox is this setup's mail transport: without its table, sending fails for real.
    await db().execute(sql`ALTER TABLE email_outbox RENAME TO email_outbox_off`);
    try {
      await runDueJobs();
    } finally {
      await db().execute(sql`ALTER TABLE email_outbox_off RENAME TO email_outbox`);
    }
    const r = await db().execute<{ state: string }>(
      sql`SELECT state FROM pgboss.job WHERE name = 'auth-mail' AND data->>'email' = ${builder.user.email}`,
    );
    expect(r.rows.map((row) => row.state)).toEqual(["retry"]);
    // Due again (as after its backoff): this time it goes out.
    await db().execute(
      sql`UPDATE pgboss.job SET start_after = now() WHERE name = 'auth-mail' AND data->>'email' = ${builder.user.email}`,
    );
    expect(await mailsTo(builder.user.email)).toHaveLength(1);
  });
});
