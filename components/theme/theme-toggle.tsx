"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useEffect, useState } from "react";
import { messages } from "@/lib/messages";
import { parseTheme, type Theme, themeCookie } from "@/lib/theme";
import { cn } from "@/lib/utils";

const OPTIONS: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: "light", label: messages.themeLight, Icon: Sun },
  { value: "dark", label: messages.themeDark, Icon: Moon },
  { value: "system", label: messages.themeSystem, Icon: Monitor },
];

/** Light, dark, or the system's: applied at once, remembered in a cookie for the next visit. */
export function ThemeToggle({ className }: { className?: string }) {
  // The server rendered <html data-theme>; read it after hydration so both renders agree.
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => setTheme(parseTheme(document.documentElement.dataset.theme)), []);
  const choose = (value: Theme) => {
    setTheme(value);
    document.documentElement.dataset.theme = value;
    // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the root layout reads on the next request.
    document.cookie = themeCookie(value, window.location.protocol === "https:");
  };
  return (
    <div
      role="radiogroup"
      aria-label={messages.themeLabel}
      className={cn("inline-flex items-center gap-0.5 rounded-md border border-border p-0.5", className)}
    >
      {OPTIONS.map(({ value, label, Icon }) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons, as radios
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          aria-label={label}
          title={label}
          onClick={() => choose(value)}
          className={cn(
            "inline-flex size-7 items-center justify-center rounded text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            theme === value && "bg-muted text-foreground",
          )}
        >
          <Icon className="size-4" aria-hidden />
        </button>
      ))}
    </div>
  );
}
