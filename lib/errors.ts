import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

/** A catalogue message with its `{placeholders}` filled: { key: "maxCustomFields", vars: { n: 5 } }. */
export type FilledMessage = { key: MessageKey; vars: Record<string, string | number> };

// The one error class. Services throw it; the route wrapper turns it into
// `{ error: { code, message } }` with its status.
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  /** Paid memberships: the end user has no active membership of the app. */
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  ATTEMPTS_EXCEEDED: 429,
  NOT_CONFIGURED: 503,
  /** An outside service we depend on (the model provider) failed or answered nonsense. */
  BAD_GATEWAY: 502,
  /** Work we ran for the caller (a space app's function) went past its time limit. */
  TIMED_OUT: 504,
  INTERNAL: 500,
} as const;

export type ErrorKind = keyof typeof errorStatus;

export class AppError extends Error {
  readonly status: number;
  readonly messageKey: MessageKey;
  /** The field of the request the error is about ("title", "records.2.title"), when there is one. */
  field?: string;

  /**
   * @param kind decides the HTTP status
   * @param message the catalogue message shown to the user (with its placeholders' values)
   * @param code the machine-readable code in the answer (defaults to kind), e.g. "auth/email-already-exists"
   * @param extra more of the answer, beside `error` (a 409 carries the version it lost to)
   */
  constructor(
    readonly kind: ErrorKind,
    message: MessageKey | FilledMessage,
    readonly code: string = kind,
    readonly extra?: Record<string, unknown>,
  ) {
    const key = typeof message === "string" ? message : message.key;
    super(typeof message === "string" ? messages[key] : fillTemplate(messages[key], message.vars));
    this.status = errorStatus[kind];
    this.messageKey = key;
  }
}

export type ErrorBody = {
  error: { code: string; message: string; field?: string; issues?: { path: string; message: string }[] };
  [extra: string]: unknown;
};
