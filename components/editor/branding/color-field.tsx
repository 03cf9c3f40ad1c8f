"use client";

import { FieldBlock } from "@/components/editor/panel-parts";
import { useDraft } from "@/components/editor/settings/use-draft";
import { Input } from "@/components/ui/input";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { normalizeHex } from "./branding-rules";

const parseHex = (text: string) => {
  const hex = normalizeHex(text);
  return hex ? ({ ok: true, value: hex } as const) : ({ ok: false, error: "brandingColorInvalid" } as const);
};
const same = (hex: string) => hex;

/**
 * One colour of the style: the browser's colour picker and a hex box beside it. Both change the
 * same value; the hex box saves only a valid #RRGGBB and says so otherwise.
 */
export function ColorField({
  label,
  value,
  onChange,
  hint,
}: {
  label: string;
  value: string;
  onChange: (hex: string) => void;
  /** A note under the field (a colour the public page replaces), tied to the hex box. */
  hint?: React.ReactNode;
}) {
  const draft = useDraft(value, same, parseHex, onChange);
  return (
    <FieldBlock label={label} hint={hint} error={draft.message}>
      {(control) => (
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label={fillTemplate(messages.brandingColorPicker, { label })}
            value={value.toLowerCase()}
            onChange={(e) => {
              const hex = normalizeHex(e.target.value);
              if (hex) onChange(hex);
            }}
            className="size-9 shrink-0 cursor-pointer rounded-md border border-border bg-transparent p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <Input
            {...control}
            value={draft.text}
            onChange={(e) => draft.change(e.target.value)}
            onBlur={draft.blur}
            spellCheck={false}
            autoComplete="off"
            maxLength={7}
            className="font-mono uppercase"
          />
        </div>
      )}
    </FieldBlock>
  );
}
