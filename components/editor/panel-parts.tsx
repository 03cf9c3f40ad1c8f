"use client";

import { ArrowLeftIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";

// Layout pieces of the editor's own panels: the back button to the menu, a panel heading, and
// labelled controls whose hint and error are read with them (aria-describedby).

/** The back button above every panel: "the main panel is the menu". */
export function BackToMenu({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="ghost" size="sm" className="-ml-2 w-fit" onClick={onBack}>
      <ArrowLeftIcon aria-hidden />
      {messages.editorBackToMenu}
    </Button>
  );
}

export function PanelHeading({ title, description }: { title: string; description?: string }) {
  return (
    <div className="grid gap-1">
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
    </div>
  );
}

type Described = { hint?: ReactNode; error?: string | null };

function useDescribed({ hint, error }: Described) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const notes = (
    <>
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </>
  );
  return { id, describedBy, notes };
}

export function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  maxLength,
  placeholder,
  type = "text",
  className,
}: Described & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  placeholder?: string;
  type?: "text" | "url";
  className?: string;
}) {
  const { id, describedBy, notes } = useDescribed({ hint, error });
  return (
    <div className={cn("grid min-w-0 gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {notes}
    </div>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  hint,
  error,
  maxLength,
  placeholder,
  rows = 3,
  className,
  textareaRef,
  children,
}: Described & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
  placeholder?: string;
  rows?: number;
  className?: string;
  textareaRef?: React.Ref<HTMLTextAreaElement>;
  /** Shown between the textarea and its hint (e.g. the field tags of the instructions). */
  children?: ReactNode;
}) {
  const { id, describedBy, notes } = useDescribed({ hint, error });
  return (
    <div className={cn("grid min-w-0 gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        ref={textareaRef}
        value={value}
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {notes}
      {children}
    </div>
  );
}

export function SwitchField({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const { id, describedBy, notes } = useDescribed({ hint });
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        {notes}
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={describedBy} />
    </div>
  );
}

/** A panel for a part of the product that arrives with a later update: says so, honestly. */
export function LaterPanel({ title, text }: { title: string; text: string }) {
  return (
    <div className="grid gap-4">
      <PanelHeading title={title} />
      <div className="rounded-lg border border-dashed border-border p-6 text-sm text-muted-foreground">
        {text}
      </div>
    </div>
  );
}
