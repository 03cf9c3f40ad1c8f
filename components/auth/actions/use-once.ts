"use client";

import { useEffect, useRef } from "react";

/** Runs an effect once per mount even under React's development double-invocation: links are single-use. */
export function useOnce(effect: () => void) {
  const done = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: deliberately once
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    effect();
  }, []);
}
