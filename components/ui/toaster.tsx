"use client";

import { Toaster as Sonner } from "sonner";

// One toast at a time: a new one replaces the one on screen.
export function Toaster() {
  return <Sonner visibleToasts={1} position="top-center" richColors closeButton />;
}
