import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { JOBS_SCHEMA, QUEUES } from "@/db/job-queues";
import { SMTP_GREETING_TIMEOUT_MS } from "@/lib/constants";
import { startWorker, stopWorker } from "@/lib/jobs/worker";
import { boss } from "@/lib/queue/boss";
import { type AuthMailJob, queueAuthMail } from "@/lib/queue/enqueue";
import { createBuilder, createPublishedApp, sixDigitCodeIn, uniqueEmail } from "../support/factories";
import { startSmtpCapture } from "../support/smtp-server";

// The sign-in mail queue with the real worker (pg-boss, in this process) sending over SMTP to a
// real mail server that takes 250 ms a message: a burst drains at the server's pace, a sign-in code
// queued behind it goes first, and a server that never answers fails the send after the SMTP
// timeout instead of holding the queue.
// lib/env reads the environment once: set it first.
const smtp = await startSmtpCapture({ delayMs: 250 });
process.env.SMTP_URL = smtp.url;

beforeAll(async () => {
  await startWorker();
});
afterAll(async () => {
  await stopWorker();
  await smtp.close();
});

const magicCode = (appId: string, email: string): AuthMailJob => ({
  kind: "magic-code",
  appId,
  email,
  continueUrl: "http://localhost:3000/",
});

async function jobStateOf(email: string): Promise<string | undefined> {
  const { rows } = await db().execute<{ state: string }>(
    sql`select state from ${sql.identifier(JOBS_SCHEMA)}.job
        where name = ${QUEUES.authMail} and data->>'email' = ${email}`,
  );
  return rows[0]?.state;
}

describe("the sign-in mail queue", () => {
  it("50 queued mails drain in under 15 s, and a sign-in code queued behind them arrives within 10 s, before most of them", async () => {
    const builder = await createBuilder();
    const app = await createPublishedApp(builder.account.accountId);
    const bulk = Array.from({ length: 50 }, (_, i) => uniqueEmail(`bulk${i}`));
    const email = uniqueEmail("signin");
    const before = smtp.messages().length;

    const started = Date.now();
    // Fifty notices queued at once (one statement), as a burst of requests would leave them.
    await (await boss()).insert(
      QUEUES.authMail,
      bulk.map((to) => ({ data: { kind: "email-changed", oldEmail: to, newEmail: `new-${to}` } })),
    );
    await queueAuthMail(magicCode(app.id, email), "magicSendFailed");
    const codeQueued = Date.now();

    const mail = await smtp.waitForMail(email, undefined, 10_000);
    expect(Date.now() - codeQueued).toBeLessThan(10_000);
    expect(sixDigitCodeIn(mail)).toMatch(/^\d{6}$/);
    // Fetched ahead of the notices still waiting (without priority it would be the 51st).
    expect(mail.seq - before).toBeLessThanOrEqual(25);

    await expect.poll(() => smtp.messages().length - before, { timeout: 15_000, interval: 100 }).toBe(51);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(
      new Set(
        smtp
          .messages()
          .slice(before)
          .map((m) => m.to),
      ),
    ).toEqual(new Set([...bulk, email]));
  }, 40_000);

  it("a mail server that accepts the connection and never greets fails the send after the timeout; the queue goes on", async () => {
    const builder = await createBuilder();
    const app = await createPublishedApp(builder.account.accountId);
    const stuckFor = uniqueEmail("stuck");
    smtp.setStalled(true);
    try {
      const queued = Date.now();
      await queueAuthMail(magicCode(app.id, stuckFor), "magicSendFailed");
      await expect.poll(() => jobStateOf(stuckFor), { timeout: 5000, interval: 100 }).toBe("active");
      // The send gives up at the greeting timeout: the job goes back to wait for its retry.
      await expect
        .poll(() => jobStateOf(stuckFor), { timeout: SMTP_GREETING_TIMEOUT_MS + 10_000, interval: 200 })
        .toBe("retry");
      expect(Date.now() - queued).toBeLessThan(SMTP_GREETING_TIMEOUT_MS + 10_000);
    } finally {
      smtp.setStalled(false);
    }
    // The server answers again: a new code arrives within seconds, and the failed one on its retry.
    const next = uniqueEmail("next");
    await queueAuthMail(magicCode(app.id, next), "magicSendFailed");
    await smtp.waitForMail(next, undefined, 10_000);
    await smtp.waitForMail(stuckFor, undefined, 30_000);
  }, 90_000);
});
