"use client";

import { Toaster as Sonner } from "sonner";
import { useTheme } from "@/components/theme/theme-provider";

// One toast at a time: a new one replaces the one on screen. Toasts follow the colour theme.
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} visibleToasts={1} position="top-center" richColors closeButton />;
}
