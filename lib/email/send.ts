import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { insertOutboxMail } from "@/db/queries/outbox";
import {
  SMTP_CONNECTION_TIMEOUT_MS,
  SMTP_GREETING_TIMEOUT_MS,
  SMTP_SOCKET_TIMEOUT_MS,
} from "@/lib/constants";
import { env } from "@/lib/env";

export type Mail = { to: string; subject: string; text: string; html: string };

let transport: Transporter | undefined;

const SMTP_TIMEOUTS = {
  connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
  greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
  socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
};

/**
 * SMTP_URL with our session timeouts added as its query options (nodemailer reads options from
 * the URL's query; given an object with a url it would read nothing else). Timeouts already in the
 * URL are the operator's and stay.
 */
export function smtpUrlWithTimeouts(smtpUrl: string): string {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    return smtpUrl; // not a URL: nodemailer reports it as it always did
  }
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  return url.toString();
}

/** Sends over SMTP when SMTP_URL is set; otherwise writes to the outbox (/dev/outbox). */
export async function sendMail(mail: Mail): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) {
    await insertOutboxMail(mail);
    return;
  }
  transport ??= nodemailer.createTransport(smtpUrlWithTimeouts(SMTP_URL));
  await transport.sendMail({ from: MAIL_FROM, ...mail });
}
