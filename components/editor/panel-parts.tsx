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

// The one set of layout pieces and form primitives of the editor's panels: the back button to
// the menu, a panel heading, a titled group, a labelled control whose hint and error are read
// with it (aria-describedby), and a labelled switch.

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

export function PanelSection({
  title,
  note,
  children,
  className,
}: {
  title: string;
  /** A line under the title (e.g. why the group is read-only). */
  note?: string;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn("grid gap-4", className)}>
      <div className="grid gap-1">
        <h3 id={id} className="text-sm font-semibold">
          {title}
        </h3>
        {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
      </div>
      {children}
    </section>
  );
}

export type ControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

/**
 * A label, the control (rendered by `children` with the ids to wire), a hint and an error.
 * The error marks the control invalid (aria-invalid: red border) and is read with it.
 */
export function FieldBlock({
  label,
  hint,
  error,
  children,
  after,
  className,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: (control: ControlProps) => ReactNode;
  /** Shown under the hint and error (e.g. the field tags of the instructions). */
  after?: ReactNode;
  className?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("grid min-w-0 gap-2", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
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
      {after}
    </div>
  );
}

type TextProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  error?: string | null;
  maxLength?: number;
  placeholder?: string;
  className?: string;
};

export function TextField({
  label,
  hint,
  error,
  className,
  onChange,
  type = "text",
  ...input
}: TextProps & { type?: "text" | "url" }) {
  return (
    <FieldBlock label={label} hint={hint} error={error} className={className}>
      {(control) => <Input {...control} {...input} type={type} onChange={(e) => onChange(e.target.value)} />}
    </FieldBlock>
  );
}

export function TextAreaField({
  label,
  hint,
  error,
  className,
  onChange,
  rows = 3,
  textareaRef,
  children,
  ...textarea
}: TextProps & {
  rows?: number;
  textareaRef?: React.Ref<HTMLTextAreaElement>;
  /** Shown under the textarea's hint (e.g. the field tags of the instructions). */
  children?: ReactNode;
}) {
  return (
    <FieldBlock label={label} hint={hint} error={error} className={className} after={children}>
      {(control) => (
        <Textarea
          {...control}
          {...textarea}
          ref={textareaRef}
          rows={rows}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FieldBlock>
  );
}

/**
 * A setting that is on or off: label and hint on the left, the switch on the right (or, with
 * `switchFirst`, the switch before them, as in the field cards' lists of options).
 */
export function SwitchRow({
  label,
  hint,
  checked,
  onCheckedChange,
  disabled,
  switchFirst = false,
  children,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  switchFirst?: boolean;
  /** Extra content under the hint (an upgrade button, a reset link). */
  children?: ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const control = (
    <Switch
      id={id}
      checked={checked}
      onCheckedChange={onCheckedChange}
      disabled={disabled}
      aria-describedby={hint ? hintId : undefined}
      className="mt-0.5"
    />
  );
  return (
    <div className={cn("flex items-start", switchFirst ? "gap-3" : "justify-between gap-4")}>
      {switchFirst ? control : null}
      <div className="grid min-w-0 gap-1">
        <Label htmlFor={id} className={cn(disabled && "text-muted-foreground")}>
          {label}
        </Label>
        {hint ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
        {children}
      </div>
      {switchFirst ? null : control}
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
