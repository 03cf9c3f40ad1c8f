/**
 * The largest request body each kind of route reads, in bytes: every cap in one place. A body
 * over its cap is refused with 413 before it is parsed (lib/api/read-body.ts).
 */
export const BODY_CAPS = {
  /** JSON routes: every field has a length limit far below this. */
  json: 16 * 1024,
  /** Auth.js's form posts (sign-in, sign-out, CSRF): a few short fields. */
  authForm: 8 * 1024,
  /** Stripe's signed events are a few KiB; Stripe documents no event near this. */
  stripeWebhook: 512 * 1024,
} as const;

export type BodyCap = keyof typeof BODY_CAPS;
