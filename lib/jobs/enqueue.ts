import "server-only";
import { QUEUES } from "@/db/job-queues";
import { boss } from "./boss";

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

export async function enqueueAuthMail(job: AuthMailJob): Promise<void> {
  await (await boss()).send(QUEUES.authMail, job);
}
