import { z } from "zod";

const EmailSchema = z.email();

/** Emails are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EmailSchema.safeParse(normalizeEmail(email)).success;
}
