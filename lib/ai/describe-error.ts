import { APICallError } from "ai";
import { AppError } from "@/lib/errors";

/**
 * A failure in words a builder can act on (the provider's status and message; our own errors as
 * they are). `sentence`: the provider's words start a sentence.
 */
export function describeError(err: unknown, opts: { sentence?: boolean } = {}): string {
  if (err instanceof AppError) return err.message;
  const e = err as { lastError?: unknown; errors?: unknown[] };
  const inner = e?.lastError ?? (Array.isArray(e?.errors) ? e.errors.at(-1) : undefined);
  if (inner && inner !== err) return describeError(inner, opts);
  if (APICallError.isInstance(err)) {
    const provider = opts.sentence ? "The model provider" : "the model provider";
    return err.statusCode
      ? `${provider} answered ${err.statusCode}: ${err.message}`
      : `${provider} could not be reached: ${err.message}`;
  }
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause;
  const message = err instanceof Error ? err.message : String(err);
  return cause?.message ? `${message} (${cause.code ?? cause.message})` : message;
}
