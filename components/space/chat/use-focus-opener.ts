"use client";

import { useCallback, useRef } from "react";

/**
 * Focus back on the button that opened a dialog rendered without a DialogTrigger (the chat's
 * dialogs are mounted open from a message's button): Radix would otherwise leave focus nowhere.
 * Pass the result as DialogContent's onCloseAutoFocus.
 */
export function useFocusOpener(): (event: Event) => void {
  const opener = useRef<HTMLElement | null>(
    typeof document === "undefined" ? null : (document.activeElement as HTMLElement | null),
  );
  return useCallback((event: Event) => {
    const el = opener.current;
    if (el?.isConnected) {
      event.preventDefault();
      el.focus();
    }
  }, []);
}
