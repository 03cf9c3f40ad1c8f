import { z } from "zod";
import { authMessages } from "@/lib/messages/auth";

// Text that can be stored. PostgreSQL's text and jsonb cannot hold U+0000 (the write fails, and
// the request with it), and a lone UTF-16 surrogate has no UTF-8 form (it would be stored as
// U+FFFD, not as sent). Client-safe: the request schemas that the UI shares import it.

/** A NUL, a high surrogate with no low one after it, or a low one with no high one before it. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (s: string): boolean => !UNSTORABLE.test(s);

/**
 * The string of every request schema (bodies, queries, path parameters): z.string() that refuses
 * what cannot be stored, with a 400 and its own message. Chains like z.string() (.min, .max,
 * .trim, .regex, ...).
 */
export const storableString = () =>
  z.string().refine(isStorableText, { message: authMessages.textNotStorable });

const NULS = /\0/g;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text from a model or a parser (an answer, an extracted document, a scraped page, a connector's
 * file), made storable before it is written: NULs dropped, lone surrogates as U+FFFD (what UTF-8
 * would make of them anyway). Objects and arrays (jsonb) are cleaned through, keys included.
 */
export function storable<T>(value: T): T {
  if (typeof value === "string") {
    return (UNSTORABLE.test(value) ? value.replace(NULS, "").replace(LONE_SURROGATES, "\uFFFD") : value) as T;
  }
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  }
  return value;
}

/** Whether every string of a JSON value, keys included, can be stored (iterative: any depth). */
export function isStorableJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (!isStorableText(v)) return false;
    } else if (Array.isArray(v)) {
      for (const child of v) stack.push(child);
    } else if (typeof v === "object" && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        if (!isStorableText(k)) return false;
        stack.push(child);
      }
    }
  }
  return true;
}
