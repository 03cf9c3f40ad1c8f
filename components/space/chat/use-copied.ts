"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { COPIED_INDICATOR_MS } from "@/lib/constants";

/**
 * Copies text and says so for "Copied indicator 2 s". "Copy failures are only logged":
 * the clipboard may be refused (permissions, an unfocused page) and the text is
 * still there to select.
 */
export function useCopied(): [boolean, (text: string) => void] {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback((text: string) => {
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
      },
      (err: unknown) => console.warn("copy failed", err),
    );
  }, []);
  return [copied, copy];
}
