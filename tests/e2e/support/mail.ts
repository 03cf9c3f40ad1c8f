import fs from "node:fs";
import path from "node:path";
import type { Mail } from "../../support/smtp-server";

export type { Mail };

// Mails the app sent over SMTP during this run. scripts/e2e.ts runs the SMTP capture and it
// writes each message as `<seq>.json` into E2E_MAIL_DIR; specs (in Playwright's worker
// processes) read that directory. Addresses are unique per test, so tests never see each
// other's mail.

function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: run the end-to-end tests with `npm run test:e2e`");
  return dir;
}

/** Every mail received so far, oldest first; only those to `to` when given. */
export function readMails(to?: string): Mail[] {
  const dir = mailDir();
  if (!fs.existsSync(dir)) return [];
  const mails = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json") && !f.startsWith("."))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Mail);
  const want = to?.trim().toLowerCase();
  return want ? mails.filter((m) => m.to === want) : mails;
}

export type MailQuery = {
  /** Only mails whose subject contains this text or matches this pattern. */
  subject?: string | RegExp;
  /** Only mails that arrived after this many mails to the address (see `countMails`). */
  after?: number;
  timeoutMs?: number;
};

/** How many mails `to` has received: pass it as `after` to wait for the next one. */
export function countMails(to: string): number {
  return readMails(to).length;
}

/** The first mail to `to` matching the query, waiting for it to arrive. */
export async function waitForMail(to: string, query: MailQuery = {}): Promise<Mail> {
  // Generous: under a full parallel run on two cores the mail job can wait for a busy worker.
  const { subject, after = 0, timeoutMs = 30_000 } = query;
  const matches = (m: Mail) =>
    subject === undefined ||
    (typeof subject === "string" ? m.subject.includes(subject) : subject.test(m.subject));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readMails(to).slice(after).find(matches);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = readMails(to).map((m) => `"${m.subject}"`);
      throw new Error(
        `No mail to ${to}${subject ? ` with subject ${String(subject)}` : ""} within ${timeoutMs} ms ` +
          `(received: ${seen.join(", ") || "none"})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first link in a mail's text that points at `pathPrefix` (default: the auth action handler). */
export function linkIn(mail: Mail, pathPrefix = "/auth/handler"): string {
  for (const raw of mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? []) {
    const url = new URL(raw);
    if (url.pathname.startsWith(pathPrefix)) return url.toString();
  }
  throw new Error(`No ${pathPrefix} link in mail "${mail.subject}":\n${mail.text}`);
}

/** The 6-digit sign-in code of a magic-code mail. */
export function codeIn(mail: Mail): string {
  const code = `${mail.subject}\n${mail.text}`.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`No 6-digit code in mail "${mail.subject}":\n${mail.text}`);
  return code;
}
