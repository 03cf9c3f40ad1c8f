import "server-only";
import { deliverEmailChangeMail } from "@/lib/auth/email-change";
import { deliverMagicCode } from "@/lib/auth/magic-code";
import { deliverPasswordRemovedMail } from "@/lib/auth/prove-address";
import { deliverResetMail } from "@/lib/auth/reset-password";
import { deliverVerificationMail } from "@/lib/auth/verify-email";
import { sendMail } from "@/lib/email/send";
import { emailChangedNoticeMail } from "@/lib/email/templates";
import type { AuthMailJob } from "@/lib/queue/enqueue";

/** Runs one queued sign-in mail; throws to have pg-boss retry it with backoff. */
export async function runAuthMailJob(job: AuthMailJob): Promise<void> {
  switch (job.kind) {
    case "reset":
      return deliverResetMail(job);
    case "verify":
      return deliverVerificationMail(job);
    case "magic-code":
      return deliverMagicCode(job);
    case "email-change":
      return deliverEmailChangeMail(job);
    case "email-changed":
      return sendMail(emailChangedNoticeMail(job.oldEmail, job.newEmail));
    case "password-removed":
      return deliverPasswordRemovedMail(job);
  }
}
