import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { insertOutboxMail } from "@/db/queries/outbox";
import { env } from "@/lib/env";

export type Mail = { to: string; subject: string; text: string; html: string };

let transport: Transporter | undefined;

/** Sends over SMTP when SMTP_URL is set; otherwise writes to the outbox (/dev/outbox). */
export async function sendMail(mail: Mail): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) {
    await insertOutboxMail(mail);
    return;
  }
  transport ??= nodemailer.createTransport(SMTP_URL);
  await transport.sendMail({ from: MAIL_FROM, ...mail });
}
