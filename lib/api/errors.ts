import { type MessageKey, messages } from "@/lib/messages";

// The one error class. Services throw it; the route wrapper turns it into
// `{ error: { code, message } }` with its status.
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  ATTEMPTS_EXCEEDED: 429,
  NOT_CONFIGURED: 503,
  INTERNAL: 500,
} as const;

export type ErrorKind = keyof typeof errorStatus;

export class AppError extends Error {
  readonly status: number;
  readonly messageKey: MessageKey;

  /**
   * @param kind decides the HTTP status
   * @param messageKey the catalogue message shown to the user
   * @param code the machine-readable code in the answer (defaults to kind), e.g. "auth/email-already-exists"
   */
  constructor(
    readonly kind: ErrorKind,
    messageKey: MessageKey,
    readonly code: string = kind,
  ) {
    super(messages[messageKey]);
    this.status = errorStatus[kind];
    this.messageKey = messageKey;
  }
}

export type ErrorBody = {
  error: { code: string; message: string; issues?: { path: string; message: string }[] };
};
