"use client";

import { useId } from "react";
import { type AppStyle, STYLE_NAMES, type StyleName } from "@/lib/apps/schemas";
import { presetStyle } from "@/lib/apps/style-presets";
import { type MessageKey, messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { presetPatch } from "./branding-rules";

const presetLabel: Record<StyleName, MessageKey> = {
  dark: "brandingPresetDark",
  colorful: "brandingPresetColorful",
  light: "brandingPresetLight",
};

/**
 * The style presets (dark, colorful, light) as a group of radio cards, each with a small swatch of its
 * colours. Native radios: arrows move between them, the picked one is announced. Picking a
 * preset (again, after changing colours by hand) sets its colours.
 */
export function PresetPicker({
  value,
  onChange,
}: {
  value: AppStyle;
  onChange: (patch: Partial<AppStyle>) => void;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={`${id}-hint`} className="m-0 grid min-w-0 gap-2 border-0 p-0">
      <legend className="mb-2 p-0 text-sm font-medium leading-none">{messages.brandingStyle}</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {messages.brandingPresetHint}
      </p>
      <div className="grid grid-cols-3 gap-2">
        {STYLE_NAMES.map((name) => {
          const preset = presetStyle(name);
          const checked = value.styleName === name;
          return (
            <label
              key={name}
              className={cn(
                "grid cursor-pointer gap-2 rounded-lg border border-border p-2 text-sm transition-colors hover:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2 has-[:focus-visible]:ring-offset-background",
                checked && "border-primary ring-1 ring-primary",
              )}
            >
              <input
                type="radio"
                name={`${id}-preset`}
                value={name}
                checked={checked}
                onChange={() => onChange(presetPatch(name))}
                // Clicking the picked preset again puts back its colours after hand-made changes.
                onClick={() => {
                  if (checked) onChange(presetPatch(name));
                }}
                className="sr-only"
              />
              <span
                aria-hidden="true"
                className="flex h-12 items-center justify-between gap-1 rounded-md border border-border px-2"
                style={{ background: preset.background }}
              >
                <span className="font-semibold" style={{ color: preset.headerTextColor }}>
                  {messages.brandingSwatchText}
                </span>
                <span className="h-4 w-6 rounded-sm" style={{ background: preset.buttonBackgroundColor }} />
              </span>
              <span className={cn("text-center", checked && "font-semibold")}>
                {messages[presetLabel[name]]}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
