"use client";

import { Monitor, Moon, Sun } from "lucide-react";
import { useId } from "react";
import { shellMessages } from "@/lib/messages/shell";
import type { Theme } from "@/lib/theme";
import { cn } from "@/lib/utils";
import { useTheme } from "./theme-provider";

const OPTIONS: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: "light", label: shellMessages.themeLight, Icon: Sun },
  { value: "dark", label: shellMessages.themeDark, Icon: Moon },
  { value: "system", label: shellMessages.themeSystem, Icon: Monitor },
];

/**
 * Light, dark, or the system's: applied at once, remembered for the next visit. Native radio
 * buttons, as the billing toggle: one tab stop, the arrow keys move and choose.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, setTheme } = useTheme();
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={shellMessages.themeLabel}
      className={cn("inline-flex items-center gap-0.5 rounded-md border border-border p-0.5", className)}
    >
      {OPTIONS.map(({ value, label, Icon }) => (
        <label
          key={value}
          title={label}
          className="relative inline-flex size-7 cursor-pointer items-center justify-center rounded text-muted-foreground hover:text-foreground has-[:checked]:bg-muted has-[:checked]:text-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
        >
          <input
            type="radio"
            name={name}
            value={value}
            checked={theme === value}
            onChange={() => setTheme(value)}
            // Invisible over the whole option, so a click anywhere on it lands on the radio itself.
            className="absolute inset-0 m-0 cursor-pointer appearance-none rounded opacity-0"
          />
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{label}</span>
        </label>
      ))}
    </div>
  );
}
