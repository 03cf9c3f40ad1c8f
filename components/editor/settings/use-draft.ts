"use client";

import { useState } from "react";
import { type MessageKey, messages } from "@/lib/messages";
import type { Parsed } from "./settings-rules";

/**
 * The text of an input whose value is saved only when it parses (a number, a link, a colour):
 * what the builder types stays in the box, a valid value is handed to `onValid` at once (the
 * editor debounces the save), an invalid one shows its message and is not saved. When the
 * saved value changes from outside (a conflict resolved by loading the other version, a preset
 * picked), the box shows the new value unless it already says the same.
 */
export function useDraft<T>(
  value: T,
  format: (value: T) => string,
  parse: (text: string) => Parsed<T>,
  onValid: (value: T) => void,
) {
  const [text, setText] = useState(() => format(value));
  const [seen, setSeen] = useState(value);
  const [error, setError] = useState<MessageKey | null>(null);

  // Adjusting state to a new prop during render (React's documented pattern, no effect needed).
  if (!Object.is(seen, value)) {
    setSeen(value);
    const current = parse(text);
    if (!current.ok || !Object.is(current.value, value)) {
      setText(format(value));
      setError(null);
    }
  }

  const change = (next: string) => {
    setText(next);
    const parsed = parse(next);
    setError(parsed.ok ? null : parsed.error);
    if (parsed.ok && !Object.is(parsed.value, value)) onValid(parsed.value);
  };

  /** On leaving the box, a valid value is shown the way it is saved (" 7 " becomes "7"). */
  const blur = () => {
    const parsed = parse(text);
    if (parsed.ok) setText(format(parsed.value));
  };

  /** The error's text, to show under the box. */
  const message = error ? messages[error] : null;

  return { text, error, message, change, blur };
}
