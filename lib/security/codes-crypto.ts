import crypto from "node:crypto";
import { env } from "@/lib/env";

/** A link token: 32 random bytes, URL-safe. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** A 6-digit one-time code, uniformly random. */
export function randomSixDigitCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
}

// Keyed hash: a 6-digit code hashed without a key could be brute-forced from a leaked row.
export function hashSecret(value: string): string {
  return crypto.createHmac("sha256", env().AUTH_SECRET).update(value).digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
