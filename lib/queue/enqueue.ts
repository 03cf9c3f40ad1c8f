import "server-only";
import { QUEUES } from "@/db/job-queues";
import { AppError } from "@/lib/errors";
import { logError } from "@/lib/log";
import type { MessageKey } from "@/lib/messages";
import { boss } from "@/lib/queue/boss";

/**
 * A mail of the sign-in flows, sent by the worker. The request that asks for it does the same
 * work whether or not the address has an account (one insert here); the job finds out, creates
 * the link or code and sends, so an answer's timing tells nothing. Payloads carry no secret: the
 * job makes the token itself.
 */
export type AuthMailJob =
  | { kind: "reset"; email: string; tenantId: string | null; continueUrl: string }
  | { kind: "verify"; userId: string; continueUrl: string }
  | { kind: "magic-code"; appId: string; email: string; continueUrl: string }
  | { kind: "email-change"; userId: string; newEmail: string }
  | { kind: "email-changed"; oldEmail: string; newEmail: string }
  | { kind: "password-removed"; userId: string };

/**
 * Who is waiting for the mail decides its place in the queue (pg-boss fetches the highest first):
 * a sign-in code, read on the screen that asked for it, before the links of the sign-in flows,
 * before notices nobody waits for.
 */
export const AUTH_MAIL_PRIORITY: Record<AuthMailJob["kind"], number> = {
  "magic-code": 20,
  verify: 10,
  reset: 10,
  "email-change": 10,
  "email-changed": 0,
  "password-removed": 0,
};

async function enqueue(job: AuthMailJob): Promise<void> {
  await (await boss()).send(QUEUES.authMail, job, { priority: AUTH_MAIL_PRIORITY[job.kind] });
}

/**
 * Queues the mail a request promises. A queue that refuses it fails the request with the flow's
 * own message (`failure`: 'Failed to send magic link…', 'Something went wrong sending…').
 */
export async function queueAuthMail(job: AuthMailJob, failure: MessageKey): Promise<void> {
  try {
    await enqueue(job);
  } catch (err) {
    logError("auth mail not queued", { kind: job.kind, err });
    throw new AppError("INTERNAL", failure, "auth/send-failed");
  }
}

/** Queues a notice nobody waits for: if the queue refuses it, that is logged and the request goes on. */
export async function queueAuthNotice(job: AuthMailJob): Promise<void> {
  await enqueue(job).catch((err) => logError("auth notice not queued", { kind: job.kind, err }));
}
