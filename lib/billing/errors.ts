import { AppError, type ErrorKind } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

/** An AppError whose catalogue message has `{placeholders}`, filled in. */
export function filledError(
  kind: ErrorKind,
  messageKey: MessageKey,
  vars: Record<string, string | number>,
  code?: string,
): AppError {
  const err = new AppError(kind, messageKey, code);
  err.message = fillTemplate(err.message, vars);
  return err;
}
