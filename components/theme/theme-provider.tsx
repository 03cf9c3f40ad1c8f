"use client";

import { createContext, useCallback, useContext, useMemo, useState } from "react";
import { type Theme, themeCookie } from "@/lib/theme";

type ThemeContextValue = { theme: Theme; setTheme: (theme: Theme) => void };

const ThemeContext = createContext<ThemeContextValue | null>(null);

/**
 * The visitor's theme choice, known to the server (the root layout reads the cookie), so every
 * toggle renders the right option from the first byte. Choosing writes <html data-theme> at
 * once and the cookie for the next request; no script runs before the page paints.
 */
export function ThemeProvider({
  initialTheme,
  children,
}: {
  initialTheme: Theme;
  children: React.ReactNode;
}) {
  const [theme, setThemeState] = useState<Theme>(initialTheme);
  const setTheme = useCallback((value: Theme) => {
    setThemeState(value);
    document.documentElement.dataset.theme = value;
    // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the root layout reads on the next request.
    document.cookie = themeCookie(value, window.location.protocol === "https:");
  }, []);
  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const context = useContext(ThemeContext);
  if (!context) throw new Error("useTheme must be used within a ThemeProvider.");
  return context;
}
